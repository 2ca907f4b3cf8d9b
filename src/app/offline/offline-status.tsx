import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { OutboxEntry } from '../../lib/db';
import { useConnectionState } from '../../lib/connection-state';
import { useOnline } from '../../lib/online';
import { canRetry, discardOutboxEntry, flushOutbox, retryOutboxEntry } from '../../lib/outbox';
import { useOutbox, useSyncState } from '../../lib/outbox-hooks';
import { isWaiting, needsDecision } from '../../lib/outbox-state';
import { formatLastSync } from '../../lib/sync-state';
import { changeKindOf, type ChangeDescription } from '../../lib/outbox-changes';
import { MESSAGES } from '../../shared/messages';
import './staff-changes';

const shortDate = (date: string) => `${Number(date.slice(5, 7))}/${Number(date.slice(8, 10))}`;
const clockTime = (at: number) => new Date(at).toLocaleTimeString('ja-JP', { hour12: false });

/**
 * The shell's view of the offline layer (docs/architecture.md#offline-design): the connection's three states
 * (オフライン, 接続が不安定です when the server does not answer though the device is online, and normal), "最終同期 HH:mm", the number of changes
 * not yet sent with a button to send them now, a request to log in when the session ended with changes waiting,
 * and every change the server refused, with its state, for a person to discard or send again.
 */
export function OfflineStatus() {
  const connection = useConnectionState();
  const online = connection !== 'offline';
  const outbox = useOutbox();
  const sync = useSyncState();
  const waiting = outbox.entries.filter(isWaiting);
  const refused = outbox.entries.filter(needsDecision);

  return (
    <Stack gap="xs" mb="md">
      {connection === 'offline' && (
        <Alert color="dark" variant="filled" role="alert" title="オフライン" data-connection="offline">
          {MESSAGES.offlineAdminNotice}
          {sync.window && ` 予約は ${shortDate(sync.window.from)}〜${shortDate(sync.window.to)} の分を保存しています。`}
        </Alert>
      )}
      {connection === 'unstable' && (
        <Alert color="orange" variant="filled" role="alert" title="接続が不安定です" data-connection="unstable">
          {MESSAGES.connectionUnstableNotice}
        </Alert>
      )}
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="last-sync">
          {sync.lastSyncAt ? formatLastSync(sync.lastSyncAt) : '未同期'}
          {sync.syncing ? '（同期中…）' : ''}
        </Text>
        {outbox.entries.length > 0 && (
          <Group gap="xs" role="status" aria-label="未送信の変更">
            {waiting.length > 0 && (
              <Badge color="orange" variant="filled" size="lg" data-testid="outbox-count">
                未送信 {waiting.length}件
              </Badge>
            )}
            {refused.length > 0 && (
              <Badge color="red" variant="filled" size="lg">
                送信エラー {refused.length}件
              </Badge>
            )}
            {waiting.length > 0 && outbox.lastAttemptAt !== null && (
              <Text size="xs" c="dimmed" data-testid="outbox-last-attempt">
                最終送信試行 {clockTime(outbox.lastAttemptAt)}
              </Text>
            )}
            {waiting.length > 0 && (
              <Button
                size="xs"
                variant="default"
                loading={outbox.flushing}
                disabled={!online}
                onClick={() => void flushOutbox('button')}
              >
                今すぐ送信
              </Button>
            )}
          </Group>
        )}
      </Group>
      {outbox.needsLogin && waiting.length > 0 && (
        <Alert color="orange" role="alert" title="ログインが必要です">
          {MESSAGES.offlineNeedsLogin}
        </Alert>
      )}
      {refused.map((entry) => (
        <RefusedChange key={entry.seq} entry={entry} />
      ))}
    </Stack>
  );
}

function Side({ label, children }: { label: string; children: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={700} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** An entry whose kind this page does not know (a newer version queued it): shown plainly, still decidable. */
const unknownChange = (entry: OutboxEntry): ChangeDescription => ({
  title: entry.path,
  link: '/admin',
  mineLabel: 'この端末での変更',
  theirsLabel: 'サーバーの状態',
  mine: entry.method,
  theirs: '',
});

/** One refused change: what this device wanted, what the server has now, why it refused, and the choice. */
function RefusedChange({ entry }: { entry: OutboxEntry }) {
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    void action().finally(() => setBusy(false));
  };
  // What the change means is its kind's to say (declared by its feature: src/app/offline/staff-changes.ts).
  const described = changeKindOf(entry.kind)?.describe(entry) ?? unknownChange(entry);
  const theirs = entry.serverState ? described.theirs : 'サーバーに見つかりません';

  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      role="alert"
      data-testid="outbox-conflict"
      style={{ borderColor: 'var(--mantine-color-red-6)' }}
    >
      <Stack gap="xs">
        <Text fw={700}>
          {entry.state === 'failed' ? MESSAGES.offlineServerFailedTitle : MESSAGES.offlineConflictTitle}
        </Text>
        <Text size="sm">
          <Link to={described.link}>{described.title}</Link>
          {described.reference && (
            <Text span size="xs" c="dimmed">
              {' '}
              （{described.reference}）
            </Text>
          )}
        </Text>
        {entry.error?.detail && <Text size="sm">{entry.error.detail}</Text>}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Side label={described.mineLabel}>{described.mine || '（空）'}</Side>
          <Side label={described.theirsLabel}>{theirs || '（空）'}</Side>
        </SimpleGrid>
        <Group gap="xs">
          <Button
            size="xs"
            color="red.9"
            variant="outline"
            disabled={busy}
            onClick={() => run(() => discardOutboxEntry(entry.seq!))}
          >
            変更を破棄
          </Button>
          {canRetry(entry) && (
            <Button size="xs" disabled={busy || !online} onClick={() => run(() => retryOutboxEntry(entry.seq!))}>
              もう一度送信
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
