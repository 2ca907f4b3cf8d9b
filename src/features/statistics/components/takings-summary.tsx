import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatYen } from '#src/shared/format';
import { useTakingsSummary } from '../api/takings-api';

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Paper>
  );
}

/**
 * The period's visits in the owner's terms (server/features/register/sales-summary.ts): 客単価, visits of new and
 * returning customers, and the share of new customers who came again within 90 days.
 */
export function TakingsSummary({ from, to }: { from: string; to: string }) {
  const summary = useTakingsSummary(from, to);
  if (!summary.data) return null;
  const { data } = summary;
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
      <Figure label="来店数" value={`${data.visit_count}件`} />
      <Figure label="客単価" value={formatYen(data.average_spend)} />
      <Figure label="新規" value={`${data.new_visits}件`} />
      <Figure label="再来" value={`${data.returning_visits}件`} />
      <Figure
        label="90日再来率"
        value={percent(data.return_rate_90d)}
        note={`新規 ${data.new_visits}人中 ${data.new_returned_90d}人`}
      />
    </SimpleGrid>
  );
}
