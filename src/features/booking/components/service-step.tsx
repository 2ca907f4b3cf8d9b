import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { formatDuration, formatYen } from '#src/shared/format';
import type { Service } from '#src/shared/schemas/booking';

interface ServiceStepProps {
  services: Service[];
  selectedId: number | null;
  onChoose(service: Service): void;
}

/** Step 1 (docs/screens.md#booking-service-step): name, duration text (1時間半) and price in yen with separators. */
export function ServiceStep({ services, selectedId, onChoose }: ServiceStepProps) {
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="メニュー一覧">
      {services.map((service) => (
        <li key={service.id}>
          <UnstyledButton
            w="100%"
            p="md"
            bd={`${service.id === selectedId ? 2 : 1}px solid ${service.id === selectedId ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-gray-4)'}`}
            bdrs="md"
            onClick={() => onChoose(service)}
            aria-label={`${service.name} ${formatDuration(service.duration_minutes)} ${formatYen(Number(service.price))}`}
          >
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Stack gap={2}>
                <Text fw={700}>{service.name}</Text>
                <Text size="sm" c="dimmed">
                  所要時間 {formatDuration(service.duration_minutes)}
                </Text>
              </Stack>
              <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                {formatYen(Number(service.price))}
              </Text>
            </Group>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}
