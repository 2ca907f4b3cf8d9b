import { useEffect } from 'react';
import { useStaffChoice } from '#src/components/staff-choice';
import { nowLocal } from '#src/lib/device-time';
import { reservationAdminKeys } from '#src/lib/query-keys';
import { MESSAGES } from '#src/shared/messages';

/**
 * The start times the new-customer dialog offers on `date` for the chosen staff member: their free times, then
 * the times outside their opening slots labelled (営業時間外); never a time already past.
 */
export function useNewCustomerTimes(date: string | null) {
  // Today's past times would only be refused by the server.
  const now = nowLocal();
  const notPast = (time: string) => !date || `${date}T${time}:00` > now;
  const choice = useStaffChoice({ date, slotsKey: reservationAdminKeys.timeSlots, bookable: notPast });
  const slots = choice.slots;

  useEffect(() => {
    // docs/screens.md#admin-reservation-list: a failure here is logged only; the dialog shows an empty list.
    if (slots.isError) console.error('時間枠の取得に失敗しました。', slots.error);
  }, [slots.isError, slots.error]);

  const available = (slots.data?.available_times ?? []).filter(notPast);
  const outside = (slots.data?.outside_business_hours ?? []).filter(notPast);
  const timeOptions = [
    ...available.map((time) => ({ value: time, label: time })),
    ...outside.map((time) => ({ value: time, label: `${time} ${MESSAGES.adminOutsideBusinessHours}` })),
  ];
  // A failed load reads as an empty day (docs/screens.md#admin-reservation-list), as before the staff choice.
  const noTimes = Boolean(date) && !slots.isPending && timeOptions.length === 0;

  return { staffChoice: choice, timeOptions, noTimes, loading: slots.isPending };
}
