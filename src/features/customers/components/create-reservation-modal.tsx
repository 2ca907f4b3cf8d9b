import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { OUTSIDE_HOURS_NOTE, StaffChoiceSelect, useStaffChoice } from '#src/components/staff-choice';
import { errorDetail } from '#src/lib/api-client';
import { nowLocal, todayLocal } from '#src/lib/device-time';
import { customerKeys } from '#src/lib/query-keys';
import { formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useCreateReservationForCustomer, useServices } from '../api/customers-queries';

/** docs/screens.md#create-reservation-modal: the dialog closes 1.5 s after a successful creation. */
const CLOSE_AFTER_SUCCESS_MS = 1500;

const OUTSIDE_HOURS_SUFFIX = ' (営業時間外)';

interface TimeOption {
  value: string;
  label: string;
}

/**
 * docs/screens.md#create-reservation-modal: the available times, then the outside-business-hours ones labelled; booked
 * times are left out, and so are times already past (`bookable`), which the server would refuse.
 */
function timeOptions(
  slots: { available_times: string[]; outside_business_hours: string[] } | undefined,
  bookable: (time: string) => boolean = () => true,
): TimeOption[] {
  if (!slots) return [];
  return [
    ...slots.available_times.filter(bookable).map((time) => ({ value: time, label: time })),
    ...slots.outside_business_hours
      .filter(bookable)
      .map((time) => ({ value: time, label: `${time}${OUTSIDE_HOURS_SUFFIX}` })),
  ];
}

/** A menu item as the select shows it: "name (N分) - ¥price" (docs/screens.md#create-reservation-modal). */
function serviceLabel(service: { name: string; duration_minutes: number; price: string | number }): string {
  return `${service.name} (${service.duration_minutes}分) - ${formatYen(Number(service.price))}`;
}

interface FormProps {
  customerId: number;
  onClose: () => void;
  onCreated: () => void;
}

function CreateReservationForm({ customerId, onClose, onCreated }: FormProps) {
  const [serviceId, setServiceId] = useState('');
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [succeeded, setSucceeded] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const services = useServices(true);
  const now = nowLocal();
  const notPast = (value: string) => !date || `${date}T${value}:00` > now;
  const choice = useStaffChoice({ date: date || null, slotsKey: customerKeys.timeSlots, bookable: notPast });
  const slots = choice.slots;
  const create = useCreateReservationForCustomer(customerId);

  // docs/screens.md#create-reservation-modal: failures of these two lists are only logged; the select stays empty.
  useEffect(() => {
    if (services.error) console.error('メニューの取得に失敗しました。', services.error);
  }, [services.error]);
  useEffect(() => {
    if (slots.isError) console.error('時間枠の取得に失敗しました。', slots.error);
  }, [slots.isError, slots.error]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const options = timeOptions(slots.data, notPast);
  const ready = Boolean(serviceId && date && time);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || create.isPending || succeeded) return;
    create.mutate(
      {
        service_id: Number(serviceId),
        start_time: `${date}T${time}:00`,
        ...(choice.canChoose && choice.staffId !== undefined ? { staff_id: choice.staffId } : {}),
      },
      {
        onSuccess: () => {
          setSucceeded(true);
          closeTimer.current = setTimeout(() => {
            onClose();
            onCreated();
          }, CLOSE_AFTER_SUCCESS_MS);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <NativeSelect
          label="メニュー"
          required
          value={serviceId}
          onChange={(event) => setServiceId(event.currentTarget.value)}
          data={[
            { value: '', label: services.isPending ? '読み込み中...' : '選択してください' },
            ...(services.data ?? []).map((service) => ({
              value: String(service.id),
              label: serviceLabel(service),
            })),
          ]}
        />
        <TextInput
          label="日付"
          type="date"
          required
          min={todayLocal()}
          value={date}
          onChange={(event) => {
            // docs/screens.md#create-reservation-modal: a new date clears the time and loads that day's slots.
            setDate(event.currentTarget.value);
            setTime('');
          }}
        />
        <StaffChoiceSelect choice={choice} onChange={() => setTime('')} />
        <NativeSelect
          label="時間"
          required
          description={OUTSIDE_HOURS_NOTE}
          disabled={!date || slots.isPending}
          value={time}
          onChange={(event) => setTime(event.currentTarget.value)}
          data={[{ value: '', label: date && slots.isPending ? '読み込み中...' : '選択してください' }, ...options]}
        />
        {date && !slots.isPending && !slots.isError && options.length === 0 && (
          <Text size="sm" c="dimmed">
            この日は予約可能な時間がありません。
          </Text>
        )}
        {create.isError && (
          <Alert color="red" role="alert">
            {errorDetail(create.error, MESSAGES.adminCreateFailed)}
          </Alert>
        )}
        {succeeded && (
          <Alert color="green" role="status">
            {MESSAGES.adminReservationCreatedConfirmed}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button type="submit" disabled={!ready || succeeded || create.isPending}>
            {create.isPending ? '作成中...' : '作成'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface CreateReservationModalProps extends FormProps {
  opened: boolean;
}

/** 予約作成（既存顧客） (docs/screens.md#create-reservation-modal): created already confirmed. */
export function CreateReservationModal({ opened, ...props }: CreateReservationModalProps) {
  return (
    <Modal opened={opened} onClose={props.onClose} title="予約作成（既存顧客）" centered>
      {/* Mounted only while open, so every opening starts from an empty form. */}
      {opened && <CreateReservationForm {...props} />}
    </Modal>
  );
}
