import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { MESSAGES } from '#src/shared/messages';
import type { Statistics } from '#src/shared/schemas/statistics';
import { useStatistics } from '../api/statistics-queries';
import { TakingsCard } from './takings-card';

// recharts (~100 KB gzipped) is loaded only here, after the counters are on screen.
const StatisticsCharts = lazy(() => import('./statistics-charts'));

/** docs/screens.md#statistics: the label 完了した予約 counts the confirmed reservations. */
const COUNTERS: { label: string; key: 'confirmed' | 'pending' | 'cancelled' }[] = [
  { label: '完了した予約', key: 'confirmed' },
  { label: '保留中の予約', key: 'pending' },
  { label: 'キャンセルされた予約', key: 'cancelled' },
];

function Counters({ stats }: { stats: Partial<Statistics['reservation_stats']> | undefined }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }}>
      {COUNTERS.map(({ label, key }) => (
        <Paper key={key} withBorder p="md" role="group" aria-label={label}>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fz={32} fw={700}>
            {stats?.[key] ?? 0}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** 統計情報 (docs/screens.md#statistics, superusers only). */
export function StatisticsPage() {
  const statistics = useStatistics();

  let content;
  if (statistics.isPending) content = <LoadingState label="読み込み中..." />;
  else if (statistics.isError)
    content = (
      <Text c="red" role="alert">
        {MESSAGES.adminStatisticsLoadFailed}
      </Text>
    );
  else
    content = (
      <Stack>
        <Counters stats={statistics.data.reservation_stats} />
        <Suspense fallback={<LoadingState label="グラフを読み込み中..." />}>
          <StatisticsCharts statistics={statistics.data} />
        </Suspense>
      </Stack>
    );

  return (
    <Stack>
      <title>統計情報</title>
      <Title order={1}>統計情報</Title>
      {content}
      <TakingsCard />
    </Stack>
  );
}
