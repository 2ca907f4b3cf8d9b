import { Alert, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { RetryAlert } from '#src/components/retry-alert';
import { MESSAGES } from '#src/shared/messages';
import type { LineUsage } from '#src/shared/schemas/settings';
import { useLineUsage } from '../api/settings-queries';

/** Where the warning starts: staff have a few days to raise the plan before customers move to e-mail. */
const NEAR_LIMIT = 0.9;

/** How close this month's LINE pushes are to the plan's limit: none, near (90%) or reached. */
export function lineBudgetLevel(usage: Pick<LineUsage, 'pushes_sent' | 'limit'>): 'ok' | 'near' | 'reached' {
  if (usage.limit === 0) return 'ok';
  if (usage.pushes_sent >= usage.limit) return 'reached';
  return usage.pushes_sent >= usage.limit * NEAR_LIMIT ? 'near' : 'ok';
}

/**
 * 今月のLINE送信数 in 設定 (server/outbox/line-budget.ts counts them): the count against the LINE plan's limit,
 * and a warning near and at the limit, when customer notices go by e-mail instead.
 */
export function LineUsagePanel() {
  const usage = useLineUsage();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="line-usage-title">
      <Title order={2} size="h4" id="line-usage-title" mb="xs">
        LINEの送信数
      </Title>
      {usage.isPending ? (
        <Skeleton height={48} aria-label="読み込み中" />
      ) : usage.isError ? (
        <RetryAlert title={MESSAGES.lineUsageLoadFailed} onRetry={() => void usage.refetch()} />
      ) : (
        <LineUsageSummary usage={usage.data} />
      )}
    </Paper>
  );
}

function LineUsageSummary({ usage }: { usage: LineUsage }) {
  const level = lineBudgetLevel(usage);
  const percent = usage.limit === 0 ? 0 : Math.min(100, Math.round((usage.pushes_sent / usage.limit) * 100));
  return (
    <Stack gap="xs">
      <Text fw={700}>{MESSAGES.lineUsage(usage.pushes_sent, usage.limit)}</Text>
      {usage.limit > 0 && (
        <Progress
          value={percent}
          color={level === 'reached' ? 'red' : level === 'near' ? 'yellow' : 'teal'}
          aria-label="今月のLINE送信数の割合"
        />
      )}
      <Text size="sm" c="dimmed">
        お客様・スタッフへのプッシュ通知と一斉送信を数えています（一斉送信は宛先の人数分）。「予約確認」への応答は数えません。
      </Text>
      {level === 'reached' && <Alert color="red" role="alert" title={MESSAGES.lineBudgetReached} />}
      {level === 'near' && <Alert color="yellow" role="status" title={MESSAGES.lineBudgetNearLimit} />}
    </Stack>
  );
}
