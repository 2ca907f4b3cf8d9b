import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useStaffChoice, type SlotsMenu } from '#src/components/staff-choice';
import { api } from '#src/lib/api-client';
import { nowLocal } from '#src/lib/device-time';
import { reservationAdminKeys, scheduleKeys } from '#src/lib/query-keys';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff } from '#src/shared/schemas/booking';

/**
 * The starts the staff booking dialog offers on `date` for the chosen staff member and menu: those the whole booking
 * fits in their working time, then those it fits outside it, labelled (営業時間外); never a time already past.
 */
export function useStaffBookingTimes(date: string | null, menu: SlotsMenu | undefined, initialStaffId?: number) {
  // Today's past times would only be refused by the server.
  const now = nowLocal();
  const notPast = (time: string) => !date || `${date}T${time}:00` > now;
  const choice = useStaffChoice({
    date,
    slotsKey: reservationAdminKeys.timeSlots,
    bookable: notPast,
    initialStaffId,
    menu,
  });
  const slots = choice.slots;

  useEffect(() => {
    // docs/screens.md#staff-booking-dialog: a failure here is logged only; the dialog shows an empty list.
    if (slots.isError) console.error('時間枠の取得に失敗しました。', slots.error);
  }, [slots.isError, slots.error]);

  const available = (slots.data?.available_times ?? []).filter(notPast);
  const outside = (slots.data?.outside_business_hours ?? []).filter(notPast);
  const timeOptions = [
    ...available.map((time) => ({ value: time, label: time })),
    ...outside.map((time) => ({ value: time, label: `${time} ${MESSAGES.adminOutsideBusinessHours}` })),
  ];
  const noTimes = Boolean(date) && !slots.isPending && timeOptions.length === 0;

  return { staffChoice: choice, timeOptions, noTimes, loading: Boolean(date) && slots.isPending };
}

/**
 * The staff customers can name (GET /api/staff/), for the 指名 checkbox and its 指名料: someone not listed does not
 * take 指名 (the server refuses it too). Under the schedule's staff root, so a staff change refreshes it.
 */
export function useNominableStaff() {
  return useQuery({
    queryKey: [...scheduleKeys.staff(), 'nominable'],
    queryFn: ({ signal }) => api.get<BookableStaff[]>('/api/staff/', { signal }),
    staleTime: 5 * 60_000,
  });
}
