import { Group, Text } from '@mantine/core';
import { RESERVATION_STATUS_LABELS } from '#src/shared/constants';
import { STATUS_COLORS } from './board-layout';

const SHOWN = ['pending', 'confirmed', 'completed', 'no_show'] as const;

/** What the block colours and the shading mean. */
export function BoardLegend() {
  return (
    <Group gap="md" aria-label="凡例" role="list">
      {SHOWN.map((status) => (
        <Group key={status} gap={4} role="listitem">
          <span
            aria-hidden
            style={{
              width: 14,
              height: 14,
              borderRadius: 3,
              borderLeft: `4px solid var(--mantine-color-${STATUS_COLORS[status]}-6)`,
              background: `var(--mantine-color-${STATUS_COLORS[status]}-light)`,
            }}
          />
          <Text size="xs">{RESERVATION_STATUS_LABELS[status]}</Text>
        </Group>
      ))}
      <Group gap={4} role="listitem">
        <span
          aria-hidden
          style={{ width: 14, height: 14, borderRadius: 3, background: 'var(--mantine-color-gray-2)' }}
        />
        <Text size="xs">勤務時間外・休憩</Text>
      </Group>
    </Group>
  );
}
