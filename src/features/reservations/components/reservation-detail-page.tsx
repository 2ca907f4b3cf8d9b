import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoginForDetail } from '#src/components/login-for-detail';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { SalonContact } from '#src/components/salon-contact';
import { StatusBadge } from '#src/components/status-badge';
import { SummaryList } from '#src/components/summary-list';
import { errorDetail, isNotFound, type TokenAudience } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { useCustomerAuth, useHasTokens } from '#src/lib/customer-auth';
import { useOnline } from '#src/lib/online';
import { staffSession } from '#src/lib/token-session';
import { formatDateTimeRangeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { reservationDetailQuery, useReservationAction } from '../api/reservations-api';
import { RebookPromptsSwitch } from './rebook-prompts-switch';
import { DeadlinePanel, DetailActions, DetailLoadFailure, reservationRows } from './reservation-detail-sections';
import { CustomerReferenceImages } from '#src/components/karte/customer-reference-images';
import { reservationKeys } from '#src/lib/query-keys';

// The calendar (Mantine dates) loads only when the customer asks to move the booking.
const ReschedulePanel = lazy(() => import('./reschedule-panel').then((m) => ({ default: m.ReschedulePanel })));

const PAGE_TITLE = '予約詳細 | ネイルサロン予約';

/** /reservations/{reservationNumber} (docs/screens.md#customer-reservation-detail): for the customer, and for staff signed in on this browser. */
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

/** What the reader may do with a booking in its current state (docs/screens.md#customer-reservation-detail). */
function permissionsOf(data: Reservation, isStaff: boolean, viaLink: boolean) {
  const active = data.status === 'pending' || data.status === 'confirmed';
  // Confirm only while pending (and only for staff); cancel while neither cancelled nor completed, and only when
  // the server says this caller may (hidden after the deadline).
  const canCancel = data.can_cancel && data.status !== 'cancelled' && data.status !== 'completed';
  return {
    active,
    canConfirm: isStaff && data.status === 'pending',
    canCancel,
    // The customer may move a booking until the same deadline as cancelling (reservations.service.ts
    // rescheduleAsCustomer); staff move bookings from their own screens, and an e-mail link is read-only.
    canReschedule: !isStaff && !viaLink && active && data.can_cancel,
    // 前回と同じで予約: a visit that took place, booked again from the calendar with its menu, options and 指名.
    canRebook: !isStaff && data.status === 'completed',
  };
}

type DetailAction = 'confirm' | 'cancel';

/**
 * Confirm or cancel after asking in the app's own dialog (`asking` is the question on screen); the error to show,
 * and the reload afterwards (both reload the booking).
 */
function useConfirmOrCancel(number: string, audience: TokenAudience, refetch: () => unknown) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const action = useReservationAction(number, audience);
  const [actionError, setActionError] = useState<string | null>(null);
  const [asking, setAsking] = useState<DetailAction | null>(null);
  const run = async (kind: DetailAction) => {
    setAsking(null);
    setActionError(null);
    try {
      const updated = await action.mutateAsync(kind);
      queryClient.setQueryData(reservationKeys.detail(number, audience), updated);
      if (kind === 'cancel' && audience !== 'admin') {
        void navigate('/cancellation-complete', { state: { reservationNumber: number } });
        return;
      }
    } catch (error) {
      const base = kind === 'confirm' ? MESSAGES.customerConfirmFailed : MESSAGES.customerCancelFailed;
      const detail = isApiError(error) && error.status >= 400 && error.status < 500 ? errorDetail(error, '') : null;
      setActionError(detail ? `${base}\n${detail}` : base);
    }
    void refetch();
  };
  return { ask: setAsking, asking, run, pending: action.isPending, actionError, setActionError };
}

/** The question before confirming or cancelling (the texts are MESSAGES.adminConfirmQuestion and …CancelQuestion). */
function ActionQuestion({ asking, onAnswer }: { asking: DetailAction | null; onAnswer(run: boolean): void }) {
  return (
    <ConfirmDialog
      opened={asking !== null}
      message={asking === 'confirm' ? MESSAGES.adminConfirmQuestion : MESSAGES.adminCancelQuestion}
      confirmLabel={asking === 'confirm' ? '確定する' : 'キャンセルする'}
      cancelLabel="戻る"
      color={asking === 'cancel' ? 'red' : undefined}
      onConfirm={() => onAnswer(true)}
      onCancel={() => onAnswer(false)}
    />
  );
}

function ReservationDetail({ number, audience, linkSecret, viaLink = false }: ReservationDetailProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const online = useOnline();
  const reservation = useQuery(reservationDetailQuery(number, audience, viaLink ? linkSecret : undefined));
  const { ask, asking, run, pending, actionError, setActionError } = useConfirmOrCancel(
    number,
    audience,
    reservation.refetch,
  );
  const [rescheduling, setRescheduling] = useState(false);
  const [movedTo, setMovedTo] = useState<{ start: string; end: string } | null>(null);
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
    return (
      <DetailLoadFailure
        number={number}
        notFound={notFound}
        viaLink={viaLink}
        onRetry={() => void reservation.refetch()}
        backButton={backButton}
      />
    );
  }

  const data = reservation.data;
  const { active, canConfirm, canCancel, canReschedule, canRebook } = permissionsOf(data, isStaff, viaLink);

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text fw={700}>ステータス</Text>
        <StatusBadge status={data.status} reading="shared" size="lg" />
      </Group>

      <SummaryList rows={reservationRows(data)} />

      {active && <DeadlinePanel data={data} viaLink={viaLink} explainNoCancel={!canCancel && !isStaff} />}

      {canRebook && !viaLink && <RebookPromptsSwitch />}

      {!isStaff && !viaLink && <CustomerReferenceImages reservationNumber={number} open={active} />}

      {!isStaff && <SalonContact />}

      {movedTo && (
        <Alert color="green" role="status">
          {MESSAGES.rescheduled} 新しい日時: {formatDateTimeRangeJa(movedTo.start, movedTo.end)}
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
              setMovedTo({ start: updated.start_time, end: updated.end_time });
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

      <DetailActions
        number={number}
        backButton={backButton}
        online={online}
        pending={pending}
        canConfirm={canConfirm}
        canCancel={canCancel}
        offerReschedule={canReschedule && !rescheduling}
        canRebook={canRebook}
        onRun={ask}
        onReschedule={() => {
          setActionError(null);
          setMovedTo(null);
          setRescheduling(true);
        }}
      />
      <ActionQuestion asking={asking} onAnswer={(yes) => (yes && asking ? void run(asking) : ask(null))} />
    </Stack>
  );
}
