import { Stack, Text } from '@mantine/core';
import type { Service } from '#src/shared/schemas/booking';
import { optionSummary } from './salon-options';

/**
 * The options (オプション) one service allows, as a view: they are added, edited and deleted in the page's オプション
 * section (salon-options.tsx), where one option serves every menu that allows it. They arrive with the menu
 * (GET /api/services/ lists each service's active options), so the page's loading and error states cover them.
 */
export function ServiceOptions({ service }: { service: Service }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={700}>
        オプション
      </Text>
      {service.options.length === 0 ? (
        <Text size="sm" c="dimmed">
          オプションはありません。
        </Text>
      ) : (
        <Stack
          gap={4}
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={`${service.name}のオプション`}
        >
          {service.options.map((option) => (
            <Text component="li" key={option.id} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {option.name}
              <Text component="span" size="sm" c="dimmed" ml="xs">
                {optionSummary(option)}
              </Text>
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
