import { Paper, Text } from '@mantine/core';
import { formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service, ServiceOption } from '#src/shared/schemas/booking';
import { menuTotal } from '#src/lib/menu-total';

export interface ChoiceSummaryProps {
  service: Service;
  options: readonly ServiceOption[];
  staff: BookableStaff | null;
}

/**
 * What the customer chose on the earlier steps, kept in sight above the calendar and the times: the menu with its
 * options, the nailist (or 指名なし), and the total time and price (the time tells when a start would end).
 */
export function ChoiceSummary({ service, options, staff }: ChoiceSummaryProps) {
  const total = menuTotal(service, options, staff);
  const menu = [service.name, ...options.map((option) => option.name)].join(' + ');
  return (
    <Paper component="section" withBorder p="sm" bg="var(--mantine-color-gray-0)" aria-label="選んだ内容">
      <Text size="sm" fw={700}>
        {menu}
      </Text>
      <Text size="sm">担当: {staff ? `${staff.name}（指名）` : MESSAGES.noNomination}</Text>
      <Text size="sm" fw={700}>
        合計 {formatDuration(total.minutes)} {formatYen(total.price)}
      </Text>
    </Paper>
  );
}
