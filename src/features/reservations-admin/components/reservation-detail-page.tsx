import { CheckoutButton } from '#src/components/checkout-button';
import { ActionIcon, Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { ReservationIncidentBadge } from '#src/components/incident-badge';
import { LoadingState } from '#src/components/loading-state';
import { OfflineReason } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { errorDetail, isNotFound } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { usePendingReservation } from '../offline-changes';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import { formatDateTimeRangeJa, formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import type { ReservationAction } from '../api/reservations-admin-api';
import { QUEUEABLE_ACTIONS, useAdminReservation, useReservationTransition } from '../api/reservations-admin-queries';
import { hasStarted } from '../dates';
import { ReservationStatusWithPending } from './pending-status';
import { RescheduleDialog } from './reschedule-dialog';
import { KarteSection } from '#src/components/karte/karte-section';
import { paths } from '#src/lib/paths';

interface ActionSpec {
  label: string;
  question: string;
  failure: string;
  done: string;
  color?: string;
  variant?: string;
}

/** docs/screens.md#admin-reservation-detail: the questions asked and the alerts on failure. */
const ACTIONS: Record<ReservationAction, ActionSpec> = {
  confirm: {
    label: '確定する',
    question: MESSAGES.adminConfirmQuestion,
    failure: MESSAGES.adminConfirmFailed,
    done: '予約を確定しました。',
  },
  cancel: {
    label: 'キャンセル',
    question: MESSAGES.adminCancelQuestion,
    failure: MESSAGES.adminCancelFailed,
    done: '予約をキャンセルしました。',
    color: 'red',
    variant: 'outline',
  },
  complete: {
    label: '完了',
    question: MESSAGES.adminCompleteQuestion,
    failure: MESSAGES.adminCompleteFailed,
    done: '予約を完了にしました。',
    color: 'blue',
  },
  no_show: {
    label: '無断欠席',
    question: MESSAGES.adminNoShowQuestion,
    failure: MESSAGES.adminNoShowFailed,
    done: '無断欠席にしました。',
    color: 'gray',
    variant: 'outline',
  },
};

/** Which buttons a reservation offers: confirm while pending, cancel while active, complete / no-show once begun. */
export function availableActions(reservation: Reservation): ReservationAction[] {
  const active = (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(reservation.status);
  const actions: ReservationAction[] = [];
  if (reservation.status === 'pending') actions.push('confirm');
  if (active) actions.push('cancel');
  if (active && hasStarted(reservation.start_time)) actions.push('complete', 'no_show');
  return actions;
}

/** docs/screens.md#admin-reservation-detail (予約詳細). */
export function ReservationDetailPage() {
  const { reservationNumber = '' } = useParams();
  const reservation = useAdminReservation(reservationNumber);

  return (
    <Stack gap="md">
      <title>予約詳細 | スタッフ管理画面</title>
      <Group gap="xs">
        <ActionIcon component={Link} to="/admin/reservations" variant="subtle" size="lg" aria-label="予約一覧へ戻る">
          <span aria-hidden="true">←</span>
        </ActionIcon>
        <Title order={1} size="h2">
          予約詳細
        </Title>
      </Group>
      {reservation.isPending ? (
        <LoadingState />
      ) : reservation.isError ? (
        isNotFound(reservation.error) ? (
          <Alert color="yellow" title={MESSAGES.adminReservationMissing}>
            <Anchor component={Link} to="/admin/reservations">
              予約一覧へ戻る
            </Anchor>
          </Alert>
        ) : (
          <RetryAlert title={MESSAGES.reservationFetchFailed} onRetry={() => void reservation.refetch()} />
        )
      ) : (
        <>
          <ReservationDetail reservation={reservation.data} />
          <KarteSection reservationNumber={reservation.data.reservation_number} status={reservation.data.status} />
        </>
      )}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </Stack>
  );
}

/** Confirm, cancel, complete, no-show: sent (or queued) and told in a notification. */
function useRunAction(loaded: Reservation) {
  // The start on screen goes with every action: one on a reservation moved meanwhile is refused, not misapplied.
  const transition = useReservationTransition(loaded.reservation_number, loaded.start_time);
  const run = (action: ReservationAction) => {
    const spec = ACTIONS[action];
    transition.mutate(action, {
      onSuccess: (result) =>
        showNotification(
          result.queued
            ? {
                color: 'orange',
                title: `${action === 'confirm' ? '確定' : 'キャンセル'}（未送信）`,
                message: MESSAGES.offlineQueued,
              }
            : { color: 'green', message: spec.done },
        ),
      onError: (error) =>
        showNotification({
          color: 'red',
          title: spec.failure,
          // A 409 says why (already changed, not yet started); other failures have nothing to add.
          message: isApiError(error, 409)
            ? errorDetail(error, MESSAGES.serverError)
            : '時間をおいて再度お試しください。',
          autoClose: 8000,
        }),
    });
  };
  return { run, transition };
}

function ReservationDetail({ reservation: loaded }: { reservation: Reservation }) {
  const { run, transition } = useRunAction(loaded);
  const [asking, setAsking] = useState<ReservationAction | null>(null);
  const [moving, setMoving] = useState(false);
  const online = useOnline();
  // A confirm or cancel waiting in the outbox already counts: its buttons are those of the status it leads to.
  const pending = usePendingReservation(loaded.reservation_number);
  const reservation = pending.value ? { ...loaded, status: pending.value } : loaded;
  const actions = availableActions(reservation);
  // Moving needs the server at once (the new time is checked against everyone's bookings), and waits for a
  // queued action of this reservation to be sent first.
  const movable = (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(reservation.status);

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            {/* The short code customers read out; the number (a UUID) stays in the address only. */}
            <Text size="sm" c="dimmed">
              予約コード
            </Text>
            <Text fw={700} size="xl" ff="monospace" style={{ letterSpacing: '0.08em' }}>
              {reservation.reservation_code}
            </Text>
          </Stack>
          <ReservationStatusWithPending reservation={loaded} size="lg" />
        </Group>

        <ReservationFields reservation={reservation} />
        <CheckoutButton reservationNumber={reservation.reservation_number} status={reservation.status} />

        {(actions.length > 0 || movable) && (
          // Sticky: on a phone the actions stay at the bottom of the screen, reachable without scrolling.
          <Group
            gap="sm"
            pos="sticky"
            bottom={0}
            py="sm"
            bg="var(--mantine-color-body)"
            style={{ zIndex: 2, borderTop: '1px solid var(--mantine-color-default-border)' }}
            data-testid="reservation-actions"
          >
            {movable && (
              <Button
                variant="light"
                disabled={!online || Boolean(pending.value) || transition.isPending}
                onClick={() => setMoving(true)}
              >
                日時を変更
              </Button>
            )}
            {actions.map((action) => (
              <Button
                key={action}
                color={ACTIONS[action].color}
                variant={ACTIONS[action].variant ?? 'filled'}
                loading={transition.isPending && transition.variables === action}
                disabled={
                  (transition.isPending && transition.variables !== action) ||
                  (!online && !QUEUEABLE_ACTIONS.has(action))
                }
                onClick={() => setAsking(action)}
              >
                {ACTIONS[action].label}
              </Button>
            ))}
          </Group>
        )}

        {actions.some((action) => !QUEUEABLE_ACTIONS.has(action)) && <OfflineReason what="完了・無断欠席の記録" />}
        {movable && <OfflineReason what="日時の変更" />}
      </Stack>
      <RescheduleDialog reservation={loaded} opened={moving} onClose={() => setMoving(false)} />
      <ConfirmDialog
        cancelLabel="戻る"
        opened={asking !== null}
        message={asking ? ACTIONS[asking].question : ''}
        confirmLabel={asking === 'cancel' ? 'キャンセルする' : asking ? ACTIONS[asking].label : ''}
        color={asking ? ACTIONS[asking].color : undefined}
        onConfirm={() => {
          setAsking(null);
          if (asking) run(asking);
        }}
        onCancel={() => setAsking(null)}
      />
    </Paper>
  );
}

/** Who, what, when, how much: the reservation's fields. */
function ReservationFields({ reservation }: { reservation: Reservation }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" component="dl" m={0}>
      <Field label="お客様">
        <Anchor component={Link} to={paths.adminCustomer(reservation.customer_id)}>
          {reservation.customer_name} 様
        </Anchor>
        <ReservationIncidentBadge reservation={reservation} />
      </Field>
      <Field label="メニュー">{reservation.service_name}</Field>
      {reservation.options.length > 0 && (
        <Field label="オプション">
          {reservation.options
            .map((option) => `${option.name}（+${option.duration_minutes}分 ${formatYen(Number(option.price))}）`)
            .join('、')}
        </Field>
      )}
      <Field label="日時">{formatDateTimeRangeJa(reservation.start_time, reservation.end_time)}</Field>
      <Field label="所要時間">{formatDuration(reservation.service.duration_minutes)}</Field>
      <Field label="料金">{formatYen(Number(reservation.service.price))}</Field>
      <Field label="担当">
        {reservation.is_nominated
          ? `${reservation.staff_name}（指名・指名料 ${formatYen(Number(reservation.nomination_fee))}）`
          : reservation.staff_name}
      </Field>
      <Field label="電話番号">{reservation.customer_phone || 'なし'}</Field>
      <Field label="メールアドレス">{reservation.customer_email || 'なし'}</Field>
    </SimpleGrid>
  );
}
