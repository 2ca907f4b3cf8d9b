import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useEffect, useState, type FormEvent } from 'react';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { OUTSIDE_HOURS_NOTE, StaffChoiceSelect } from '#src/components/staff-choice';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { todayLocal } from '#src/lib/device-time';
import { formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { normalisePhone } from '#src/shared/kana';
import { useCreateWithNewCustomer, useServices } from '../api/reservations-admin-queries';
import { useNewCustomerTimes } from '../hooks/use-new-customer-times';

/** docs/screens.md#new-customer-dialog: the dialog closes 1.5 s after a successful creation. */
export const CLOSE_AFTER_SUCCESS_MS = 1500;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Field = 'name' | 'phone_number' | 'email' | 'service_id' | 'date' | 'time';
type FieldErrors = Partial<Record<Field, string>>;

interface FormState {
  name: string;
  phone: string;
  email: string;
  serviceId: string | null;
  date: string | null;
  time: string | null;
}
const EMPTY: FormState = { name: '', phone: '', email: '', serviceId: null, date: null, time: null };

function validate(form: FormState): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.name.trim()) errors.name = MESSAGES.fieldRequired;
  if (!/^\d*$/.test(normalisePhone(form.phone))) errors.phone_number = MESSAGES.phoneDigits;
  if (form.email.trim() && !EMAIL_PATTERN.test(form.email.trim())) errors.email = MESSAGES.emailInvalid;
  if (!form.serviceId) errors.service_id = MESSAGES.fieldRequired;
  if (!form.date) errors.date = MESSAGES.fieldRequired;
  if (!form.time) errors.time = MESSAGES.fieldRequired;
  return errors;
}

/** The server's field messages, moved onto this form's fields (start_time belongs to the time select). */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!isApiError(error) || !error.fields) return {};
  const result: FieldErrors = {};
  for (const [name, messages] of Object.entries(error.fields)) {
    const field = name === 'start_time' ? 'time' : name;
    if (['name', 'phone_number', 'email', 'service_id', 'time'].includes(field)) result[field as Field] = messages[0];
  }
  return result;
}

export interface NewCustomerDialogProps {
  opened: boolean;
  onClose(): void;
}

/**
 * docs/screens.md#new-customer-dialog: a walk-in or a phone call becomes a customer with a confirmed reservation.
 * The time is disabled until a date is chosen; times outside the chosen staff member's opening slots are offered
 * too, labelled (営業時間外); booked times are not offered. A superuser chooses the staff member (by default one
 * with free time that day); anyone else books for themselves.
 */
export function NewCustomerDialog({ opened, onClose }: NewCustomerDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="新規顧客の予約作成" size="lg" centered>
      {/* Mounted only while open: every opening starts from an empty form. */}
      {opened && <NewCustomerForm onClose={onClose} />}
    </Modal>
  );
}

/** The walk-in's name and contacts: only the name is required. */
function CustomerFields({
  form,
  errors,
  set,
}: {
  form: FormState;
  errors: FieldErrors;
  set(patch: Partial<FormState>): void;
}) {
  return (
    <>
      <TextInput
        label="お名前"
        required
        autoComplete="off"
        value={form.name}
        error={errors.name}
        onChange={(event) => set({ name: event.currentTarget.value })}
      />
      <Group grow align="flex-start" gap="sm">
        <TextInput
          label="電話番号"
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          description="ハイフンなしの数字"
          value={form.phone}
          error={errors.phone_number}
          onChange={(event) => set({ phone: event.currentTarget.value })}
        />
        <TextInput
          label="メールアドレス"
          type="email"
          autoComplete="off"
          value={form.email}
          error={errors.email}
          onChange={(event) => set({ email: event.currentTarget.value })}
        />
      </Group>
    </>
  );
}

function NewCustomerForm({ onClose }: { onClose(): void }) {
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const services = useServices();
  const { staffChoice: choice, timeOptions, noTimes, loading } = useNewCustomerTimes(form.date);
  const create = useCreateWithNewCustomer();

  useEffect(() => {
    if (!create.isSuccess) return;
    const timer = setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [create.isSuccess, onClose]);

  const set = (patch: Partial<FormState>) => setForm((current) => ({ ...current, ...patch }));

  const serviceOptions = (services.data ?? []).map((service) => ({
    value: String(service.id),
    // docs/screens.md#new-customer-dialog: "name (N分) - ¥price".
    label: `${service.name} (${service.duration_minutes}分) - ${formatYen(Number(service.price))}`,
  }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || create.isSuccess) return;
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      {
        name: form.name.trim(),
        phone_number: normalisePhone(form.phone),
        email: form.email.trim(),
        service_id: Number(form.serviceId),
        start_time: `${form.date}T${form.time}:00`,
        ...(choice.canChoose && choice.staffId !== undefined ? { staff_id: choice.staffId } : {}),
      },
      { onError: (error) => setErrors(serverFieldErrors(error)) },
    );
  };

  // docs/screens.md#new-customer-dialog: the server's error, else 作成に失敗しました。 (answers without our error body carry no detail of use).
  const failure = !create.isError ? null : errorDetail(create.error, MESSAGES.adminCreateFailed);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <CustomerFields form={form} errors={errors} set={set} />
        <Select
          label="メニュー"
          required
          placeholder={services.isPending ? '読み込み中…' : 'メニューを選択'}
          data={serviceOptions}
          value={form.serviceId}
          error={errors.service_id}
          onChange={(value) => set({ serviceId: value })}
          comboboxProps={{ withinPortal: true }}
        />
        <Group grow align="flex-start" gap="sm">
          <DatePickerInput
            {...CALENDAR_PROPS}
            label="日付"
            required
            placeholder="日付を選択"
            valueFormat="YYYY/MM/DD"
            minDate={todayLocal()}
            value={form.date}
            error={errors.date}
            // docs/screens.md#new-customer-dialog: a new date clears the time and reloads the slots.
            onChange={(value) => set({ date: value, time: null })}
          />
        </Group>
        <StaffChoiceSelect choice={choice} onChange={() => set({ time: null })} />
        <Group grow align="flex-start" gap="sm">
          <Select
            label="時間"
            required
            description={OUTSIDE_HOURS_NOTE}
            disabled={!form.date}
            placeholder={!form.date ? '先に日付を選択' : loading ? '読み込み中…' : '時間を選択'}
            data={timeOptions}
            value={form.time}
            error={errors.time}
            onChange={(value) => set({ time: value })}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        {noTimes && (
          <Text size="sm" c="red" role="status">
            {MESSAGES.adminNoTimesForDay}
          </Text>
        )}

        {create.isSuccess && <Alert color="green" role="status" title={MESSAGES.adminNewCustomerCreated} />}
        {failure && <Alert color="red" role="alert" title={failure} />}

        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button type="submit" loading={create.isPending} disabled={create.isSuccess}>
            {create.isPending ? '作成中...' : '作成する'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
