import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { errorDetail } from '#src/lib/api-client';
import { waitlistKeys } from '#src/lib/query-keys';
import { formatDateJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';
import { myWaitlistQuery, withdrawWaitlistEntry } from '../api/waitlist-api';

/** The window of starts an entry waits for, as the customer chose it. */
function windowLabel(entry: Pick<WaitlistEntry, 'time_from' | 'time_to'>): string {
  if (!entry.time_from && !entry.time_to) return '時間指定なし';
  return `${entry.time_from ?? ''}〜${entry.time_to ?? ''}`;
}

/**
 * 予約一覧's キャンセル待ち: the customer's waiting entries with 取り消す (asked first). Hidden while there are none,
 * so that a customer who never used it sees the list as before.
 */
export function MyWaitlist() {
  const queryClient = useQueryClient();
  const list = useQuery(myWaitlistQuery());
  const [withdrawing, setWithdrawing] = useState<WaitlistEntry | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  if (list.isPending) return <LoadingState label="キャンセル待ちを読み込み中…" />;
  if (list.isError) return <RetryAlert title={MESSAGES.waitlistLoadFailed} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0 && !notice) return null;

  const withdraw = async (entry: WaitlistEntry) => {
    setWithdrawing(null);
    try {
      await withdrawWaitlistEntry(entry.id);
      setNotice({ ok: true, text: MESSAGES.waitlistWithdrawn });
    } catch (error) {
      setNotice({
        ok: false,
        text: errorDetail(error, MESSAGES.waitlistWithdrawFailed),
      });
    }
    void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="my-waitlist">
      <Title order={2} size="h4" id="my-waitlist">
        キャンセル待ち
      </Title>
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </Alert>
      )}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {list.data.map((entry) => (
          <li key={entry.id}>
            <Card withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" align="center" gap="xs">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={700} size="sm">
                    {formatDateJa(entry.date)}（{windowLabel(entry)}）
                  </Text>
                  <Text size="sm" truncate="end">
                    {entry.service_name}
                    {entry.staff_name ? `・指名 ${entry.staff_name}` : ''}
                  </Text>
                </Stack>
                <Button
                  variant="default"
                  size="xs"
                  style={{ flexShrink: 0 }}
                  aria-label={`${formatDateJa(entry.date)} ${entry.service_name}のキャンセル待ちを取り消す`}
                  onClick={() => setWithdrawing(entry)}
                >
                  取り消す
                </Button>
              </Group>
            </Card>
          </li>
        ))}
      </Stack>
      <ConfirmDialog
        opened={withdrawing !== null}
        message={MESSAGES.waitlistWithdrawQuestion}
        confirmLabel="取り消す"
        cancelLabel="戻る"
        color="red"
        onConfirm={() => withdrawing && void withdraw(withdrawing)}
        onCancel={() => setWithdrawing(null)}
      />
    </Stack>
  );
}
