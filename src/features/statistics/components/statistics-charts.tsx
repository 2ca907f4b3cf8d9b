import { Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatYen } from '#src/shared/format';
import type { Statistics } from '#src/shared/schemas/statistics';

/**
 * The two charts of the statistics screen. This module is the only importer of recharts and is loaded with a
 * dynamic import from the page, so the library ships on /admin/statistics only.
 */

/** docs/screens.md#statistics: the pie chart has 5 colours, one per service of the top 5. */
export const PIE_COLORS = ['#c2255c', '#1971c2', '#2f9e44', '#e8590c', '#6741d9'] as const;
const BAR_COLOR = '#c2255c';
const CHART_HEIGHT = 300;

function DataTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: [string, string][] }) {
  return (
    <VisuallyHidden>
      <Table>
        <caption>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{head[0]}</Table.Th>
            <Table.Th>{head[1]}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([a, b]) => (
            <Table.Tr key={a}>
              <Table.Td>{a}</Table.Td>
              <Table.Td>{b}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </VisuallyHidden>
  );
}

/**
 * The x-axis labels of the monthly chart ("2025年05月" → "5月"): the first month, and each month where the year
 * changes, keep the year ("2025年12月", "2026年1月"), so a twelve-month span across New Year cannot be misread.
 */
export function monthTickLabels(labels: string[]): Map<string, string> {
  const shown = new Map<string, string>();
  let previousYear: string | undefined;
  for (const label of labels) {
    const match = /^(\d{4})年0?(\d{1,2})月$/.exec(label);
    if (!match) {
      shown.set(label, label);
      continue;
    }
    const [, year, month] = match;
    shown.set(label, year === previousYear ? `${month}月` : `${year}年${month}月`);
    previousYear = year;
  }
  return shown;
}

function MonthlySalesChart({ series }: { series: Statistics['monthly_sales'] }) {
  const data = series.labels.map((month, index) => ({ month, sales: series.data[index] ?? 0 }));
  const ticks = monthTickLabels(series.labels);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          月別売上
        </Title>
        <div aria-hidden="true" data-testid="monthly-sales-chart">
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="month" tickFormatter={(label: string) => ticks.get(label) ?? label} fontSize={12} />
              <YAxis tickFormatter={(value: number) => formatYen(value)} width={80} fontSize={12} />
              <Tooltip formatter={(value) => [formatYen(Number(value)), '売上']} />
              <Bar dataKey="sales" name="売上" fill={BAR_COLOR} radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <DataTable
          caption="月別売上"
          head={['月', '売上']}
          rows={data.map((row) => [row.month, formatYen(row.sales)])}
        />
      </Stack>
    </Paper>
  );
}

function ServiceRankingChart({ series }: { series: Statistics['service_ranking'] }) {
  const data = series.labels
    .slice(0, PIE_COLORS.length)
    .map((name, index) => ({ name, value: series.data[index] ?? 0 }));
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          人気サービス Top 5
        </Title>
        {data.length === 0 ? (
          <Text c="dimmed">まだ集計できる予約がありません。</Text>
        ) : (
          <>
            <div aria-hidden="true" data-testid="service-ranking-chart">
              <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
                <PieChart accessibilityLayer={false}>
                  <Pie
                    data={data}
                    dataKey="value"
                    nameKey="name"
                    outerRadius="70%"
                    label
                    isAnimationActive={false}
                    rootTabIndex={-1}
                  >
                    {data.map((entry, index) => (
                      <Cell key={entry.name} fill={PIE_COLORS[index % PIE_COLORS.length]} />
                    ))}
                  </Pie>
                  <Tooltip formatter={(value) => [`${String(value)}件`, '予約数']} />
                  <Legend />
                </PieChart>
              </ResponsiveContainer>
            </div>
            <DataTable
              caption="人気サービス Top 5"
              head={['メニュー', '予約数']}
              rows={data.map((row) => [row.name, `${row.value}件`])}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}

export function StatisticsCharts({ statistics }: { statistics: Statistics }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <MonthlySalesChart series={statistics.monthly_sales} />
      <ServiceRankingChart series={statistics.service_ranking} />
    </SimpleGrid>
  );
}

export default StatisticsCharts;
