import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lineUsageQuery } from '../api/settings-queries';
import { lineBudgetLevel } from './line-usage-panel';

/**
 * The banner's texts. Kept with the staff app (a lazy chunk) rather than in the shared messages, which every
 * customer page loads: the /reserve bundle has a size budget.
 */
const count = (value: number) => value.toLocaleString('ja-JP');
export const LINE_BUDGET_BANNER = {
  reached: (limit: number) =>
    `今月のLINE送信数が上限（${count(limit)}通）に達しました。お客様への通知はメールで送信しています。`,
  near: (sent: number, limit: number) =>
    `今月のLINE送信数が上限（${count(limit)}通）に近づいています（${count(sent)}通送信済み）。上限に達すると、お客様への通知はメールで送信します。`,
};

/** The count changes with every push; a few minutes old is close enough for a warning. */
const STALE_MS = 5 * 60_000;

/**
 * The staff app's warning at the LINE plan's limit (server/outbox/line-budget.ts): at the limit customer notices go
 * by e-mail instead, so every staff screen says so; from 90 % a softer notice. Shows nothing while the count is
 * unknown (loading, offline, an error): a warning must never be a guess, and 設定 shows the count and its errors.
 */
export function LineBudgetBanner() {
  // Read again at every app start: the count restored from the persisted cache (src/lib/query-persist.ts saves
  // a moment after a change) may predate a limit just saved, and would otherwise pass for fresh for STALE_MS.
  const usage = useQuery({ ...lineUsageQuery, staleTime: STALE_MS, retry: false, refetchOnMount: 'always' });
  if (!usage.data) return null;
  const level = lineBudgetLevel(usage.data);
  if (level === 'reached') {
    return (
      <Alert color="red" role="alert" mb="md">
        {LINE_BUDGET_BANNER.reached(usage.data.limit)}
      </Alert>
    );
  }
  if (level === 'near') {
    return (
      <Alert color="yellow" role="status" mb="md">
        {LINE_BUDGET_BANNER.near(usage.data.pushes_sent, usage.data.limit)}
      </Alert>
    );
  }
  return null;
}
