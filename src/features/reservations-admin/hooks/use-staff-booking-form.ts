import { useState, type FormEvent } from 'react';
import { isApiError } from '#src/lib/api-errors';
import type { StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import { MESSAGES } from '#src/shared/messages';
import { normalisePhone } from '#src/shared/kana';
import { useCreateStaffBooking, useServices } from '../api/reservations-admin-queries';
import { useNominableStaff, useStaffBookingTimes } from './use-staff-booking-times';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Field = 'name' | 'phone_number' | 'email' | 'service_id' | 'date' | 'time' | 'staff_id' | 'option_ids';
type FieldErrors = Partial<Record<Field, string>>;

export interface NewCustomerValues {
  name: string;
  phone: string;
  email: string;
}

interface Choices {
  serviceId: string | null;
  optionIds: number[];
  nominated: boolean;
  date: string | null;
  time: string | null;
}

function validate(customer: NewCustomerValues | null, choices: Choices): FieldErrors {
  const errors: FieldErrors = {};
  if (customer) {
    if (!customer.name.trim()) errors.name = MESSAGES.fieldRequired;
    if (!/^\d*$/.test(normalisePhone(customer.phone))) errors.phone_number = MESSAGES.phoneDigits;
    if (customer.email.trim() && !EMAIL_PATTERN.test(customer.email.trim())) errors.email = MESSAGES.emailInvalid;
  }
  if (!choices.serviceId) errors.service_id = MESSAGES.fieldRequired;
  if (!choices.date) errors.date = MESSAGES.fieldRequired;
  if (!choices.time) errors.time = MESSAGES.fieldRequired;
  return errors;
}

/** The server's field messages on the form's fields (start_time belongs to the time select). */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!isApiError(error) || !error.fields) return {};
  const result: FieldErrors = {};
  for (const [name, messages] of Object.entries(error.fields)) {
    result[(name === 'start_time' ? 'time' : name) as Field] = messages[0];
  }
  return result;
}

/**
 * What the staff booking dialog holds (staff-booking-form.tsx): the customer typed in (新規顧客), the menu choice, 指名,
 * day and start; the starts offered for them; and the creation.
 */
export function useStaffBookingForm(input: {
  customerId?: number;
  initial?: StaffBookingDialogProps['initial'];
  onCreated(reservationNumber: string): void;
}) {
  const { customerId, initial } = input;
  const [customer, setCustomer] = useState<NewCustomerValues>({ name: '', phone: '', email: '' });
  const [choices, setChoices] = useState<Choices>({
    serviceId: null,
    optionIds: [],
    // A cell tapped on the board names its nailist: that is 指名 unless the desk says otherwise.
    nominated: initial?.staffId !== undefined,
    date: initial?.date ?? null,
    time: initial?.time ?? null,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const services = useServices();
  const service = services.data?.find((item) => String(item.id) === choices.serviceId);
  const menu = service ? { serviceId: service.id, optionIds: choices.optionIds } : undefined;
  const times = useStaffBookingTimes(choices.date, menu, initial?.staffId);
  const { staffChoice } = times;
  const nominable = useNominableStaff();
  const bookedFor = staffChoice.canChoose ? staffChoice.staffId : staffChoice.viewerId;
  const nominee = nominable.data?.find((member) => member.id === bookedFor);
  const create = useCreateStaffBooking();
  // A start the booking no longer fits (a longer menu, another staff member) is not offered, nor kept.
  const fits = times.loading || times.timeOptions.some((option) => option.value === choices.time);
  const time = fits ? choices.time : null;

  const set = (patch: Partial<Choices>) => {
    setChoices((current) => ({ ...current, ...patch }));
    setErrors((current) => ({ ...current, ...Object.fromEntries(Object.keys(patch).map((key) => [key, undefined])) }));
  };
  const toggleOption = (id: number) =>
    set({
      optionIds: choices.optionIds.includes(id)
        ? choices.optionIds.filter((other) => other !== id)
        : [...choices.optionIds, id],
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const found = validate(customerId === undefined ? customer : null, { ...choices, time });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const booking = {
      service_id: Number(choices.serviceId),
      option_ids: choices.optionIds,
      start_time: `${choices.date}T${time}:00`,
      is_nominated: choices.nominated && nominee !== undefined,
      ...(staffChoice.canChoose && staffChoice.staffId !== undefined ? { staff_id: staffChoice.staffId } : {}),
    };
    const name = customer.name.trim();
    const contacts = { phone_number: normalisePhone(customer.phone), email: customer.email.trim() };
    create.mutate(
      customerId === undefined
        ? { kind: 'new', ...booking, name, ...contacts }
        : { kind: 'known', ...booking, customer_id: customerId },
      {
        onSuccess: (reservation) => input.onCreated(reservation.reservation_number),
        onError: (error) => setErrors(serverFieldErrors(error)),
      },
    );
  };

  return {
    customer,
    setCustomer: (patch: Partial<NewCustomerValues>) => setCustomer((current) => ({ ...current, ...patch })),
    choices: { ...choices, time },
    set,
    toggleOption,
    errors,
    services,
    service,
    times,
    nominee,
    create,
    submit,
  };
}
