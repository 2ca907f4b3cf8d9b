import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SlotDatePicker } from '#src/components/slot-picker/date-picker';
import { addMinutesToTime } from '#src/components/slot-picker/dates';
import type { MenuChoice } from '#src/components/slot-picker/slot-queries';
import { SlotTimePicker } from '#src/components/slot-picker/time-picker';
import { useDateCheck } from '#src/components/slot-picker/use-date-check';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { newIdempotencyKey } from '#src/lib/idempotency-key';
import { bookingKeys } from '#src/lib/query-keys';
import { formatDateTimeRangeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { RescheduleRequest, Reservation } from '#src/shared/schemas/reservations';
import { rescheduleReservation } from '../api/reservations-api';

export interface ReschedulePanelProps {
  reservation: Reservation;
  online: boolean;
  /** The booking was moved: the server's new reservation. */
  onMoved(updated: Reservation): void;
  /** The deadline passed meanwhile (403): the page says why and reloads; the picker closes. */
  onRefused(message: string): void;
  onClose(): void;
}

type Step = 'date' | 'time' | 'confirm';

const STEP_TITLES: Record<Step, string> = {
  date: '新しい日付を選ぶ',
  time: '新しい時間を選ぶ',
  confirm: '変更内容の確認',
};

/**
 * Keyboard and screen-reader users follow each step (and land in the picker when it opens). Opened under the
 * details, the calendar would be below the fold on a phone: each step brings the panel's top to the top of the
 * screen, so the calendar (then the times) is in sight; the focus itself does not scroll, or it would undo that.
 */
function useStepInView(step: Step) {
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [step]);
  return { heading, panel };
}

/**
 * 「日時を変更」 on the customer's detail page: the wizard's calendar and time grid for the same menu (service,
 * options, and the same nailist when they were named), then a confirmation. The server treats the booking's own
 * current time as free while moving it, but the availability list does not know which booking moves, so the
 * current start may be missing from the offered times.
 */
export function ReschedulePanel({ reservation, online, onMoved, onRefused, onClose }: ReschedulePanelProps) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>('date');
  const [date, setDate] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const idempotency = useRef<{ payload: string; key: string } | null>(null);
  const { heading, panel } = useStepInView(step);
  const { check, choose, reset } = useDateCheck();

  const choice: MenuChoice = {
    serviceId: reservation.service.id,
    optionIds: reservation.options.map((option) => option.id),
    staffId: reservation.is_nominated ? reservation.staff_id : null,
  };
  const minutes = reservation.service.duration_minutes;

  const submit = async () => {
    if (sendingRef.current || !date || !time) return;
    const body: RescheduleRequest = {
      start_time: `${date}T${time}:00`,
      ...(reservation.is_nominated ? { staff_id: reservation.staff_id } : {}),
    };
    const serialized = JSON.stringify(body);
    if (idempotency.current?.payload !== serialized) {
      idempotency.current = { payload: serialized, key: newIdempotencyKey() };
    }
    sendingRef.current = true;
    setSending(true);
    setError(null);
    try {
      const updated = await rescheduleReservation(reservation.reservation_number, body, idempotency.current.key);
      // The old time is free again and the new one taken.
      void queryClient.invalidateQueries({ queryKey: bookingKeys.all });
      onMoved(updated);
    } catch (caught) {
      if (isApiError(caught, 409) && caught.code === 'slot_unavailable') {
        // Taken meanwhile: the day's times again, loaded fresh rather than the cached list that still offers it.
        queryClient.removeQueries({ queryKey: bookingKeys.availability(choice, date) });
        setTime(null);
        setNotice(errorDetail(caught, MESSAGES.slotUnavailable));
        setStep('time');
      } else if (isApiError(caught, 403)) {
        onRefused(errorDetail(caught, MESSAGES.rescheduleDeadlinePassed));
      } else {
        const detail = isApiError(caught) && caught.status < 500 ? errorDetail(caught, '') : null;
        setError(detail ? `${MESSAGES.rescheduleFailed}\n${detail}` : MESSAGES.rescheduleFailed);
      }
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  return (
    <Paper ref={panel} withBorder p="md" component="section" aria-labelledby="reschedule-heading">
      <Stack gap="md">
        <Title order={2} size="h4" id="reschedule-heading" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          {STEP_TITLES[step]}
        </Title>
        <Text size="sm">
          現在の日時: <strong>{formatDateTimeRangeJa(reservation.start_time, reservation.end_time)}</strong>
        </Text>

        {step === 'date' && (
          <SlotDatePicker
            choice={choice}
            selectedDate={check.date ?? date}
            checking={check.checking}
            error={check.error}
            onChoose={(chosen) =>
              void choose(choice, chosen, (free) => {
                setDate(free);
                setTime(null);
                setNotice(null);
                setStep('time');
              })
            }
          />
        )}

        {step === 'time' && date && (
          <>
            <SlotTimePicker
              choice={choice}
              durationMinutes={minutes}
              menuName={reservation.service.name}
              date={date}
              selectedTime={time}
              notice={notice}
              onChoose={(chosen) => {
                setTime(chosen);
                setNotice(null);
                setError(null);
                setStep('confirm');
              }}
            />
            <BackLink
              label="日付選択に戻る"
              onClick={() => {
                reset();
                setStep('date');
              }}
            />
          </>
        )}

        {step === 'confirm' && date && time && (
          <>
            <Text>
              変更後の日時:{' '}
              <strong>{formatDateTimeRangeJa(`${date}T${time}`, `${date}T${addMinutesToTime(time, minutes)}`)}</strong>
            </Text>
            <Text fw={700}>この日時に変更しますか？</Text>
            {error && (
              <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
                {error}
              </Alert>
            )}
            <Button onClick={() => void submit()} loading={sending} disabled={!online || sending} fullWidth>
              変更する
            </Button>
            {!online && (
              <Text size="sm" c="red" role="status">
                オフラインのため変更できません。接続を確認してください。
              </Text>
            )}
            <BackLink label="時間選択に戻る" onClick={() => setStep('time')} />
          </>
        )}

        <Group>
          <Button variant="default" onClick={onClose} disabled={sending}>
            日時の変更をやめる
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function BackLink({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Anchor component="button" type="button" onClick={onClick} size="sm" ta="left">
      ← {label}
    </Anchor>
  );
}
