import { Button, Checkbox, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { useAdminViewer } from '#src/components/staff-choice';
import { copyText } from '#src/lib/clipboard';
import { toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import { useRegenerateCalendarFeed, type CalendarFeedChoice } from '../api/calendar-feed-api';

/**
 * カレンダー連携: the signed-in staff member's secret iCalendar URL (in GET /api/admin/me/), with a copy button, how to
 * add it to Google or iPhone calendars, and URLを再発行 (after a confirmation: the old URL stops working at once).
 * Customers' phone numbers are left out of the feed unless the staff member ticks 電話番号を含める, which makes a
 * new URL too (after the same kind of confirmation): a URL handed out without them never starts showing them.
 * On 受付時間設定 because every staff member can open that page.
 */
export function CalendarFeedSection() {
  const profile = useAdminViewer();
  const regenerate = useRegenerateCalendarFeed();
  const online = useOnline();
  /** The replacement waiting for the staff member's yes, if any. */
  const [confirming, setConfirming] = useState<CalendarFeedChoice | null>(null);
  const url = profile.data?.calendar_feed_url;
  const includesPhone = profile.data?.calendar_feed_includes_phone ?? false;

  const onCopy = async () => {
    if (!url) return;
    if (await copyText(url)) toast('green', MESSAGES.calendarFeedCopied);
    else toast('yellow', MESSAGES.calendarFeedCopyFailed);
  };

  const onRegenerate = () => {
    const choice = confirming ?? {};
    setConfirming(null);
    regenerate.mutate(choice, {
      onSuccess: () => toast('green', MESSAGES.calendarFeedRegenerated),
      onError: () => toast('red', MESSAGES.calendarFeedRegenerateFailed),
    });
  };

  let body;
  if (url) {
    body = (
      <>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label="カレンダー連携用URL"
            value={url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button variant="default" onClick={() => void onCopy()} aria-label="カレンダー連携用URLをコピー">
            コピー
          </Button>
        </Group>
        <Checkbox
          label="予定にお客様の電話番号を含める"
          description="変更するとURLが新しくなります。"
          checked={includesPhone}
          disabled={!online || regenerate.isPending}
          onChange={(event) => setConfirming({ include_phone: event.currentTarget.checked })}
        />
        <Group>
          <Button
            variant="light"
            color="red"
            onClick={() => setConfirming({})}
            disabled={!online || regenerate.isPending}
            loading={regenerate.isPending}
          >
            URLを再発行
          </Button>
          {!online && (
            <Text size="sm" c="dimmed">
              {MESSAGES.offlineUnavailable('URLの再発行')}
            </Text>
          )}
        </Group>
      </>
    );
  } else if (profile.isPending || profile.isFetching) {
    body = <LoadingState />;
  } else if (!online) {
    body = (
      <Text size="sm" c="dimmed">
        {MESSAGES.offlineNotShown('カレンダー連携用URL')}
      </Text>
    );
  } else {
    // A failed load, or a profile kept on this device from before the URL existed: ask the server again.
    body = <RetryAlert title={MESSAGES.calendarFeedLoadFailed} onRetry={() => void profile.refetch()} />;
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="calendar-feed-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="calendar-feed-title">
          カレンダー連携
        </Title>
        <Text size="sm">
          このURLをGoogleカレンダーやiPhoneのカレンダーに登録すると、ご自身の予約（保留中・確定）が表示されます。キャンセルされた予約は消えます。
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            Googleカレンダー:
            パソコンで「他のカレンダー」の「＋」から「URLで追加」を選び、URLを貼り付けます（反映まで数時間かかることがあります）。
          </List.Item>
          <List.Item>
            iPhone:
            「設定」→「カレンダー」→「アカウント」→「アカウントを追加」→「その他」→「照会するカレンダーを追加」にURLを貼り付けます。
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          URLを知っている人は誰でも予約を見られます。他の人に教えないでください。漏れたときは再発行してください。
        </Text>
        {body}
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        message={
          confirming?.include_phone === undefined
            ? MESSAGES.calendarFeedRegenerateQuestion
            : MESSAGES.calendarFeedPhoneQuestion(confirming.include_phone)
        }
        confirmLabel={confirming?.include_phone === undefined ? '再発行する' : '変更する'}
        color="red"
        onConfirm={onRegenerate}
        onCancel={() => setConfirming(null)}
      />
    </Paper>
  );
}
