import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { OUTSIDE_HOURS_NOTE } from '#src/components/staff-choice';
import { errorDetail } from '#src/lib/api-client';
import { todayLocal } from '#src/lib/device-time';
import type { StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import { MESSAGES } from '#src/shared/messages';
import { useStaffBookingForm } from '../hooks/use-staff-booking-form';
import { NewCustomerFields } from './staff-booking-customer-fields';
import { BookingTotal, MenuFields, NominationChoice } from './staff-booking-menu';

interface FormProps {
  customerId?: number;
  initial?: StaffBookingDialogProps['initial'];
  onCancel(): void;
  onCreated(reservationNumber: string): void;
}

/** The fields of the staff booking dialog (staff-booking-dialog.tsx); what they hold: use-staff-booking-form.ts. */
export function StaffBookingForm({ customerId, initial, onCancel, onCreated }: FormProps) {
  const form = useStaffBookingForm({ customerId, initial, onCreated });
  const { choices, errors, times, create } = form;
  const { staffChoice } = times;
  // Each staff member with their free starts that day for this booking, as the dialogs always showed.
  const staffLabel = (member: { id: number; full_name: string; username: string }) => {
    const count = staffChoice.freeCount(member.id);
    const name = member.full_name || member.username;
    return count === undefined ? name : `${name}（空き ${count}枠）`;
  };
  // The server's error, else 作成に失敗しました。 (answers without our error body carry no detail of use).
  const failure = create.isError ? errorDetail(create.error, MESSAGES.adminCreateFailed) : null;

  return (
    <form onSubmit={form.submit} noValidate>
      <Stack gap="sm">
        {customerId === undefined && (
          <NewCustomerFields values={form.customer} errors={errors} set={form.setCustomer} />
        )}
        <MenuFields
          services={form.services.data ?? []}
          loading={form.services.isPending}
          service={form.service}
          optionIds={choices.optionIds}
          error={errors.service_id ?? errors.option_ids}
          onService={(value) => form.set({ serviceId: value, optionIds: [] })}
          onToggleOption={form.toggleOption}
        />
        {staffChoice.canChoose && (
          <Select
            label="担当スタッフ"
            required
            placeholder="日付を選ぶと空いているスタッフを選びます"
            data={staffChoice.staff.map((member) => ({ value: String(member.id), label: staffLabel(member) }))}
            value={staffChoice.staffId === undefined ? null : String(staffChoice.staffId)}
            error={errors.staff_id}
            onChange={(value) => value && staffChoice.choose(Number(value))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <NominationChoice
          nominee={form.nominee}
          nominated={choices.nominated}
          onChange={(nominated) => form.set({ nominated })}
        />
        <Group grow align="flex-start" gap="sm">
          <DatePickerInput
            {...CALENDAR_PROPS}
            label="日付"
            required
            placeholder="日付を選択"
            valueFormat="YYYY/MM/DD"
            minDate={todayLocal()}
            value={choices.date}
            error={errors.date}
            onChange={(value) => form.set({ date: value, time: null })}
          />
          <Select
            label="時間"
            required
            disabled={!choices.date}
            placeholder={!choices.date ? '先に日付を選択' : times.loading ? '読み込み中…' : '時間を選択'}
            data={times.timeOptions}
            value={choices.time}
            error={errors.time}
            onChange={(value) => form.set({ time: value })}
            // Picking the chosen time again keeps it (Mantine's default would clear it, and the total with it).
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Text size="xs" c="dimmed">
          {OUTSIDE_HOURS_NOTE}
        </Text>
        {times.noTimes && (
          <Text size="sm" c="red" role="status">
            {MESSAGES.adminNoTimesForDay}
          </Text>
        )}
        {form.service && (
          <BookingTotal
            service={form.service}
            optionIds={choices.optionIds}
            nominee={choices.nominated ? form.nominee : undefined}
            time={choices.time}
          />
        )}
        {failure && <Alert color="red" role="alert" title={failure} />}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel}>
            キャンセル
          </Button>
          <Button type="submit" loading={create.isPending}>
            作成する
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
