import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useEffect, useState, type FormEvent } from 'react';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { OUTSIDE_HOURS_NOTE, StaffChoiceSelect, useStaffChoice } from '#src/components/staff-choice';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { nowLocal, todayLocal } from '#src/lib/device-time';
import { showNotification } from '#src/lib/notify';
import { reservationAdminKeys } from '#src/lib/query-keys';
import { addMinutesToTime } from '#src/components/slot-picker/dates';
import { formatDateTimeRangeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { useRescheduleReservation } from '../api/reservations-admin-queries';

interface RescheduleDialogProps {
  reservation: Reservation;
  opened: boolean;
  onClose(): void;
}

/**
 * 日時を変更: staff move an active reservation to another start (a superuser also to another staff member). The
 * times are those of GET /api/admin/detailed-time-slots/ like the new-reservation dialog: free ones first, then
 * those outside the staff member's hours, labelled (営業時間外). The change is asked once more before it is sent;
 * the server checks the new time against every other booking and refuses a reservation moved meanwhile.
 */
export function RescheduleDialog({ reservation, opened, onClose }: RescheduleDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="日時を変更" size="lg" centered>
      {/* Mounted only while open: every opening starts from the reservation's own day. */}
      {opened && <RescheduleForm reservation={reservation} onClose={onClose} />}
    </Modal>
  );
}

function RescheduleForm({ reservation, onClose }: { reservation: Reservation; onClose(): void }) {
  const [date, setDate] = useState<string | null>(reservation.start_time.slice(0, 10));
  const [time, setTime] = useState<string | null>(null);
  const [timeError, setTimeError] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const now = nowLocal();
  const notPast = (slot: string) => !date || `${date}T${slot}:00` > now;
  const choice = useStaffChoice({
    date,
    slotsKey: reservationAdminKeys.timeSlots,
    bookable: notPast,
    initialStaffId: reservation.staff_id,
  });
  const slots = choice.slots;
  const move = useRescheduleReservation(reservation.reservation_number);

  useEffect(() => {
    if (slots.isError) console.error('時間枠の取得に失敗しました。', slots.error);
  }, [slots.isError, slots.error]);

  const current = reservation.start_time.slice(0, 16);
  const isCurrent = (slot: string) =>
    `${date}T${slot}` === current && (choice.staffId === undefined || choice.staffId === reservation.staff_id);
  const available = (slots.data?.available_times ?? []).filter((slot) => notPast(slot) && !isCurrent(slot));
  const outside = (slots.data?.outside_business_hours ?? []).filter((slot) => notPast(slot) && !isCurrent(slot));
  const timeOptions = [
    ...available.map((slot) => ({ value: slot, label: slot })),
    ...outside.map((slot) => ({ value: slot, label: `${slot} ${MESSAGES.adminOutsideBusinessHours}` })),
  ];
  const noTimes = Boolean(date) && !slots.isPending && timeOptions.length === 0;
  const newStart = date && time ? `${date}T${time}:00` : null;
  const staffName = choice.staff.find((member) => member.id === choice.staffId);
  const movesStaff = choice.canChoose && choice.staffId !== undefined && choice.staffId !== reservation.staff_id;

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (!newStart) {
      setTimeError(MESSAGES.fieldRequired);
      return;
    }
    setTimeError(undefined);
    setConfirming(true);
  };

  const send = () => {
    if (!newStart || move.isPending) return;
    move.mutate(
      {
        start_time: newStart,
        expected_start_time: reservation.start_time,
        ...(movesStaff ? { staff_id: choice.staffId } : {}),
      },
      {
        onSuccess: (moved) => {
          showNotification({
            color: 'green',
            title: MESSAGES.rescheduled,
            message: formatDateTimeRangeJa(moved.start_time, moved.end_time),
          });
          onClose();
        },
        onError: (error) => {
          setConfirming(false);
          const field = isApiError(error) ? error.fields?.start_time?.[0] : undefined;
          if (field) setTimeError(field);
        },
      },
    );
  };

  // A move keeps the booking's length (service, options and 指名 stay as booked).
  const movedRange = (start: string) =>
    formatDateTimeRangeJa(
      start,
      `${start.slice(0, 10)}T${addMinutesToTime(start.slice(11, 16), reservation.service.duration_minutes)}`,
    );

  const failure = move.isError ? errorDetail(move.error, MESSAGES.rescheduleFailed) : null;

  if (confirming && newStart) {
    return (
      <Stack gap="sm">
        <Text>
          {formatDateTimeRangeJa(reservation.start_time, reservation.end_time)} から {movedRange(newStart)}
          {movesStaff && staffName ? `（担当: ${staffName.full_name || staffName.username}）` : ''}
          に変更しますか？お客様にも変更のお知らせが送られます。
        </Text>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => setConfirming(false)} disabled={move.isPending}>
            戻る
          </Button>
          <Button onClick={send} loading={move.isPending} data-autofocus>
            変更する
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={ask} noValidate>
      <Stack gap="sm">
        <Text size="sm">現在の日時: {formatDateTimeRangeJa(reservation.start_time, reservation.end_time)}</Text>
        <DatePickerInput
          {...CALENDAR_PROPS}
          label="新しい日付"
          required
          placeholder="日付を選択"
          valueFormat="YYYY/MM/DD"
          minDate={todayLocal()}
          value={date}
          onChange={(value) => {
            setDate(value);
            setTime(null);
          }}
        />
        <StaffChoiceSelect choice={choice} onChange={() => setTime(null)} />
        <Select
          label="新しい時間"
          required
          description={OUTSIDE_HOURS_NOTE}
          disabled={!date}
          placeholder={!date ? '先に日付を選択' : slots.isPending ? '読み込み中…' : '時間を選択'}
          data={timeOptions}
          value={time}
          error={timeError}
          onChange={(value) => {
            setTime(value);
            setTimeError(undefined);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        {noTimes && (
          <Text size="sm" c="red" role="status">
            {MESSAGES.adminNoTimesForDay}
          </Text>
        )}
        {failure && <Alert color="red" role="alert" title={failure} />}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button type="submit">次へ</Button>
        </Group>
      </Stack>
    </form>
  );
}
