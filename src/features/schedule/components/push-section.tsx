import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { browserSupportsPush, currentBrowserSubscription } from '#src/lib/push-browser';
import { MESSAGES } from '#src/shared/messages';
import {
  PushNotAllowedError,
  usePushSubscriptions,
  useSubscribeThisBrowser,
  useUnsubscribeThisBrowser,
} from '../api/push-api';

type DeviceState = 'checking' | 'unsupported' | 'denied' | 'subscribed' | 'not_subscribed';

/** What this browser can do now: no push at all, notifications refused, or whether it is subscribed. */
async function readDeviceState(): Promise<DeviceState> {
  if (!browserSupportsPush()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  try {
    return (await currentBrowserSubscription()) ? 'subscribed' : 'not_subscribed';
  } catch {
    return 'unsupported';
  }
}

/**
 * プッシュ通知: the signed-in staff member's new, cancelled and moved bookings as notifications on this device (Web
 * Push) instead of LINE messages. Next to カレンダー連携 on 受付時間設定, which every staff member can open.
 */
export function PushSection() {
  const online = useOnline();
  const [device, setDevice] = useState<DeviceState>('checking');
  const subscriptions = usePushSubscriptions(device === 'subscribed' || device === 'not_subscribed');
  const subscribe = useSubscribeThisBrowser();
  const unsubscribe = useUnsubscribeThisBrowser();
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    let active = true;
    void readDeviceState().then((state) => {
      if (active) setDevice(state);
    });
    return () => {
      active = false;
    };
  }, []);

  const onSubscribe = () => {
    const key = subscriptions.data?.vapid_public_key;
    if (!key) return;
    subscribe.mutate(key, {
      onSuccess: () => {
        setDevice('subscribed');
        toast('green', MESSAGES.pushSubscribed);
      },
      onError: (error) => {
        if (error instanceof PushNotAllowedError) setDevice(error.reason);
        else toast('red', MESSAGES.pushSubscribeFailed);
      },
    });
  };

  const onUnsubscribe = () => {
    setConfirming(false);
    unsubscribe.mutate(undefined, {
      onSuccess: () => {
        setDevice('not_subscribed');
        toast('green', MESSAGES.pushUnsubscribed);
      },
      onError: () => toast('red', MESSAGES.pushUnsubscribeFailed),
    });
  };

  const count = subscriptions.data?.subscriptions.length ?? 0;
  let body;
  if (device === 'unsupported') {
    body = <Alert color="gray">{MESSAGES.pushUnsupported}</Alert>;
  } else if (device === 'denied') {
    body = <Alert color="yellow">{MESSAGES.pushDenied}</Alert>;
  } else if (device === 'checking' || subscriptions.isPending) {
    body = <LoadingState />;
  } else if (subscriptions.isError) {
    body = <RetryAlert title={MESSAGES.pushLoadFailed} onRetry={() => void subscriptions.refetch()} />;
  } else {
    const busy = subscribe.isPending || unsubscribe.isPending;
    body = (
      <>
        <Text size="sm" aria-live="polite">
          {device === 'subscribed' ? 'この端末で通知を受け取っています。' : 'この端末では通知を受け取っていません。'}
          {count > 0 && `（通知を受け取る端末: ${count}台）`}
        </Text>
        <Group>
          {device === 'subscribed' ? (
            <Button
              variant="light"
              color="red"
              onClick={() => setConfirming(true)}
              disabled={!online || busy}
              loading={unsubscribe.isPending}
            >
              通知を止める
            </Button>
          ) : (
            <Button onClick={onSubscribe} disabled={!online || busy} loading={subscribe.isPending}>
              この端末で通知を受け取る
            </Button>
          )}
          {!online && (
            <Text size="sm" c="dimmed">
              {MESSAGES.offlineUnavailable('通知の設定')}
            </Text>
          )}
        </Group>
      </>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="push-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="push-title">
          プッシュ通知
        </Title>
        <Text size="sm">
          新しいご予約・キャンセル・日時変更を、この端末の通知でお知らせします。通知を受け取る端末がある間は、LINEでのお知らせは届きません。
        </Text>
        {body}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        message={MESSAGES.pushStopQuestion}
        confirmLabel="通知を止める"
        color="red"
        onConfirm={onUnsubscribe}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
