import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { LineLoginButton } from '#src/components/line-login-button';
import { LoginForDetail } from '#src/components/login-for-detail';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { RetryAlert } from '#src/components/retry-alert';
import { SalonContact } from '#src/components/salon-contact';
import { StatusBadge } from '#src/components/status-badge';
import { SummaryList } from '#src/components/summary-list';
import { errorDetail, isNotFound, type TokenAudience } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { useCustomerAuth, useHasTokens } from '#src/lib/customer-auth';
import { useOnline } from '#src/lib/online';
import { staffSession } from '#src/lib/token-session';
import { formatDateTimeJa, formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { reservationDetailQuery, useReservationAction } from '../api/reservations-api';
import { RebookPromptsSwitch } from './rebook-prompts-switch';
import { CustomerReferenceImages } from '#src/components/karte/customer-reference-images';
import { paths } from '#src/lib/paths';
import { reservationKeys } from '#src/lib/query-keys';

// The calendar (Mantine dates) loads only when the customer asks to move the booking.
const ReschedulePanel = lazy(() => import('./reschedule-panel').then((m) => ({ default: m.ReschedulePanel })));

const PAGE_TITLE = '予約詳細 | ネイルサロン予約';

/** "ジェルオフ（+30分 +¥1,100）": an option as booked (an option without added time shows only its price). */
function optionText(option: Reservation['options'][number]): string {
  const time = option.duration_minutes > 0 ? `+${formatDuration(option.duration_minutes)} ` : '';
  return `${option.name}（${time}+${formatYen(Number(option.price))}）`;
}

/** /reservations/{reservationNumber} (docs/architecture.md#screens-and-texts): for the customer, and for staff signed in on this browser. */
export function ReservationDetailPage() {
  const number = useParams().reservationNumber;
  const { signedIn } = useCustomerAuth();
  const isStaff = useHasTokens(staffSession);
  const { pathname } = useLocation();
  // The link in the customer's e-mails carries the reservation's link secret: it opens this one reservation
  // read-only without signing in (a front-desk customer has no LINE account linked to it).
  const linkSecret = useSearchParams()[0].get('t') || undefined;

  let content;
  if (!number) {
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.reservationNumberMissing}
      </Alert>
    );
  } else if (!signedIn && !isStaff && linkSecret) {
    content = <ReservationDetail number={number} audience="customer" linkSecret={linkSecret} viaLink />;
  } else if (!signedIn && !isStaff) {
    content = (
      <Stack gap="md" align="center" ta="center">
        <LoginForDetail returnTo={pathname} />
      </Stack>
    );
  } else {
    content = (
      <ReservationDetail
        number={number}
        audience={isStaff ? 'admin' : 'customer'}
        linkSecret={isStaff ? undefined : linkSecret}
      />
    );
  }

  return (
    <PageContainer>
      <title>{PAGE_TITLE}</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          予約詳細
        </Title>
        {content}
      </Stack>
    </PageContainer>
  );
}

interface ReservationDetailProps {
  number: string;
  audience: TokenAudience;
  /** The e-mail link's secret, if the page was opened from it. */
  linkSecret?: string;
  /** Read through the e-mail link (no session): read-only. */
  viaLink?: boolean;
}

function ReservationDetail({ number, audience, linkSecret, viaLink = false }: ReservationDetailProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const online = useOnline();
  const reservation = useQuery(reservationDetailQuery(number, audience, viaLink ? linkSecret : undefined));
  const action = useReservationAction(number, audience);
  const [actionError, setActionError] = useState<string | null>(null);
  const [rescheduling, setRescheduling] = useState(false);
  const [movedTo, setMovedTo] = useState<string | null>(null);
  const isStaff = audience === 'admin';

  const goBack = () => {
    // A page opened from an e-mail link has no history inside the app.
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/');
  };
  const backButton = (
    <Button variant="default" onClick={goBack}>
      戻る
    </Button>
  );

  if (reservation.isPending) return <LoadingState label="予約情報を読み込み中…" />;
  if (reservation.isError) {
    const notFound = isNotFound(reservation.error);
    // A signed-in customer who is not the booking's customer (a front-desk booking) still has the e-mail's link.
    if (notFound && !viaLink && linkSecret) {
      return <ReservationDetail number={number} audience={audience} linkSecret={linkSecret} viaLink />;
    }
    if (notFound && viaLink) {
      return (
        <Stack gap="md">
          <Alert color="red" role="alert" title={MESSAGES.reservationLinkInvalid} />
          <LineLoginButton
            label="LINEでログインして確認する"
            options={{ returnTo: paths.reservation(number) }}
            w={{ base: '100%', xs: 320 }}
          />
          <Group>{backButton}</Group>
        </Stack>
      );
    }
    return (
      <Stack gap="md">
        {notFound ? (
          <Alert color="red" role="alert" title={MESSAGES.reservationNotFound} />
        ) : (
          <RetryAlert title={MESSAGES.reservationFetchFailed} onRetry={() => void reservation.refetch()} />
        )}
        <Group>{backButton}</Group>
      </Stack>
    );
  }

  const data = reservation.data;
  const active = data.status === 'pending' || data.status === 'confirmed';
  // docs/architecture.md#screens-and-texts: confirm only while pending (and only for staff, docs/architecture.md); cancel while neither cancelled
  // nor completed, and only when the server says this caller may (hidden after the deadline).
  const canConfirm = isStaff && data.status === 'pending';
  const canCancel = data.can_cancel && data.status !== 'cancelled' && data.status !== 'completed';
  // The customer may move a booking until the same deadline as cancelling (server/features/reservations/
  // reschedule.ts rescheduleAsCustomer); staff move bookings from their own screens, and an e-mail link is read-only.
  const canReschedule = !isStaff && !viaLink && active && data.can_cancel;
  // 前回と同じで予約: a visit that took place, booked again from the calendar with its menu, options and 指名.
  const canRebook = !isStaff && data.status === 'completed';

  const run = async (kind: 'confirm' | 'cancel') => {
    const question = kind === 'confirm' ? 'この予約を確定しますか？' : 'この予約をキャンセルしますか？';
    if (!window.confirm(question)) return;
    setActionError(null);
    try {
      const updated = await action.mutateAsync(kind);
      queryClient.setQueryData(reservationKeys.detail(number, audience), updated);
      if (kind === 'cancel' && !isStaff) {
        void navigate('/cancellation-complete', { state: { reservationNumber: number } });
        return;
      }
    } catch (error) {
      const base = kind === 'confirm' ? MESSAGES.customerConfirmFailed : MESSAGES.customerCancelFailed;
      const detail = isApiError(error) && error.status >= 400 && error.status < 500 ? errorDetail(error, '') : null;
      setActionError(detail ? `${base}\n${detail}` : base);
    }
    // docs/architecture.md#screens-and-texts: both reload the reservation afterwards.
    void reservation.refetch();
  };

  const rows: Array<[string, string]> = [
    ['予約番号', data.reservation_number],
    ['予約コード', data.reservation_code],
    ['サロン', data.salon.name],
    ['メニュー', data.service.name],
    ...(data.options.length > 0 ? [['オプション', data.options.map(optionText).join('、')] as [string, string]] : []),
    ['担当', `${data.staff_name}${data.is_nominated ? '（指名）' : ''}`],
    ...(data.is_nominated && Number(data.nomination_fee) > 0
      ? [['指名料', formatYen(Number(data.nomination_fee))] as [string, string]]
      : []),
    // The service's price and time here are the totals: service, options and 指名料.
    ['料金', formatYen(Number(data.service.price))],
    ['所要時間', `${data.service.duration_minutes}分`],
    ['開始日時', formatDateTimeJa(data.start_time)],
    ['終了日時', formatDateTimeJa(data.end_time)],
    ['お名前', data.customer_name],
    ['メールアドレス', data.customer_email || 'なし'],
    ['電話番号', data.customer_phone || 'なし'],
  ];

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text fw={700}>ステータス</Text>
        <StatusBadge status={data.status} reading="shared" size="lg" />
      </Group>

      <SummaryList rows={rows} />

      {active && (
        <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
          <Text size="sm">
            キャンセル期限: <strong>{formatDateTimeJa(data.cancellation_deadline)}</strong>
          </Text>
          {viaLink ? (
            <Text size="sm" mt="xs">
              このページはメールのリンクから表示しています。キャンセル・変更は、お手数ですがサロンへ直接ご連絡ください（予約コードをお伝えください）。
            </Text>
          ) : (
            !canCancel &&
            !isStaff && (
              <Text size="sm" mt="xs">
                {MESSAGES.cancellationDeadlinePassed}
              </Text>
            )
          )}
        </Paper>
      )}

      {canRebook && !viaLink && <RebookPromptsSwitch />}

      {!isStaff && !viaLink && <CustomerReferenceImages reservationNumber={number} open={active} />}

      {!isStaff && <SalonContact />}

      {movedTo && (
        <Alert color="green" role="status">
          {MESSAGES.rescheduled} 新しい日時: {formatDateTimeJa(movedTo)}
        </Alert>
      )}

      {rescheduling && canReschedule && (
        <Suspense fallback={<LoadingState />}>
          <ReschedulePanel
            reservation={data}
            online={online}
            onMoved={(updated) => {
              queryClient.setQueryData(reservationKeys.detail(number, audience), updated);
              void queryClient.invalidateQueries({ queryKey: reservationKeys.mine() });
              setRescheduling(false);
              setMovedTo(updated.start_time);
              void reservation.refetch();
            }}
            onRefused={(message) => {
              setRescheduling(false);
              setActionError(`${MESSAGES.rescheduleFailed}\n${message}`);
              void reservation.refetch();
            }}
            onClose={() => setRescheduling(false)}
          />
        </Suspense>
      )}

      {actionError && (
        <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
          {actionError}
        </Alert>
      )}

      <Group grow preventGrowOverflow={false} wrap="wrap">
        {backButton}
        {canConfirm && (
          <Button color="green" onClick={() => void run('confirm')} loading={action.isPending} disabled={!online}>
            予約を確定する
          </Button>
        )}
        {canReschedule && !rescheduling && (
          <Button
            variant="light"
            onClick={() => {
              setActionError(null);
              setMovedTo(null);
              setRescheduling(true);
            }}
            disabled={!online}
          >
            日時を変更
          </Button>
        )}
        {canCancel && (
          <Button color="red" onClick={() => void run('cancel')} loading={action.isPending} disabled={!online}>
            予約をキャンセルする
          </Button>
        )}
        {canRebook && (
          <Button component={Link} to={paths.rebook(number)}>
            前回と同じで予約
          </Button>
        )}
      </Group>
    </Stack>
  );
}
