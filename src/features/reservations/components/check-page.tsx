import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { RetryAlert } from '#src/components/retry-alert';
import { isNotFound } from '#src/lib/api-client';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { startLineLogin } from '#src/lib/line-login';
import { usePublicConfig } from '#src/lib/public-config';
import { LINE_LOGIN_STATES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { useNotifyLatestReservation } from '../api/reservations-api';
import { paths } from '#src/lib/paths';

/**
 * The note after sending, by the answer's channel. Kept with this page (a lazy chunk) rather than in the shared
 * messages, which every customer page loads: the /reserve bundle has a size budget.
 */
export const CHECK_PAGE_SENT = {
  line: {
    title: 'LINEに送信しました',
    body: '最新のご予約の内容をLINEのトークにお送りしました。LINEアプリでご確認ください。',
  },
  email: {
    title: 'メールで送信しました',
    body: '今月はLINEでお送りできないため、最新のご予約の内容をご登録のメールアドレスにお送りしました。メールをご確認ください。',
  },
  none: {
    title: '送信できませんでした',
    body: '今月はLINEでお送りできず、ご登録のメールアドレスもないため、ご予約の内容をお送りできませんでした。下のボタンからこの画面でご確認ください。',
  },
} as const;

export interface CheckPageProps {
  /** docs/screens.md#check-reservation: the state the LINE login carries, so that the return comes back to this page. */
  state: typeof LINE_LOGIN_STATES.checkReservation | typeof LINE_LOGIN_STATES.confirmReservation;
  title: string;
}

/**
 * /check (and /check-reservation) and /confirm-reservation (docs/screens.md#check-reservation): signed out, they go to the LINE
 * login; signed in, they ask the server to send the latest reservation to the customer's LINE chat (by e-mail
 * when the month's LINE pushes are spent: the page says which).
 */
export function CheckPage({ state, title }: CheckPageProps) {
  const { signedIn } = useCustomerAuth();
  return (
    <PageContainer>
      <title>{`${title} | ネイルサロン予約`}</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        {signedIn ? <SendLatest /> : <RedirectToLogin state={state} />}
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}

function RedirectToLogin({ state }: { state: CheckPageProps['state'] }) {
  const config = usePublicConfig();
  const started = useRef(false);

  useEffect(() => {
    if (!config.data || started.current) return;
    started.current = true;
    void startLineLogin(config.data, { state });
  }, [config.data, state]);

  if (config.isError) {
    return <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={() => void config.refetch()} />;
  }
  return <LoadingState label="LINEのログイン画面へ移動しています…" />;
}

function SendLatest() {
  const notify = useNotifyLatestReservation();
  const { mutate } = notify;
  // One request per visit: StrictMode's second effect run must not push a second message.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate();
  }, [mutate]);

  if (notify.isIdle || notify.isPending) return <LoadingState label="ご予約を確認しています…" />;
  if (notify.isSuccess) {
    // An answer without a channel comes from a server before it had one: it always pushed to LINE.
    const channel = notify.data.channel ?? 'line';
    const note = CHECK_PAGE_SENT[channel];
    return (
      <Stack gap="sm">
        {/* No Alert title: Mantine's green title colour on its light background is below 4.5:1. */}
        <Alert color={channel === 'none' ? 'yellow' : 'green'} role="status">
          <Text fw={700}>{note.title}</Text>
          {note.body}
        </Alert>
        <Button component={Link} to={paths.reservation(notify.data.reservation_number)} variant="light">
          予約内容をこの画面で見る
        </Button>
      </Stack>
    );
  }
  const notFound = isNotFound(notify.error);
  return (
    <Stack gap="sm">
      <Alert color={notFound ? 'yellow' : 'red'} role="alert">
        {notFound ? MESSAGES.notifyNotFound : MESSAGES.notifyFailed}
      </Alert>
      {notFound ? (
        <Button component={Link} to="/reserve">
          予約する
        </Button>
      ) : (
        <Button variant="light" onClick={() => mutate()}>
          もう一度送信する
        </Button>
      )}
    </Stack>
  );
}

export function CheckReservationPage() {
  return <CheckPage state={LINE_LOGIN_STATES.checkReservation} title="予約の確認" />;
}

export function ConfirmReservationPage() {
  return <CheckPage state={LINE_LOGIN_STATES.confirmReservation} title="予約内容の確認" />;
}
