import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { bookingKeys, type BookingMenuKey } from '#src/lib/query-keys';

/**
 * The free days and starts of a menu choice, shared by the booking wizard and the customer's "move this booking"
 * picker (src/features/reservations). 指名なし sends no staff_id; options go comma-separated.
 */
export type MenuChoice = BookingMenuKey;

function menuQuery({ serviceId, optionIds, staffId }: MenuChoice) {
  return {
    service_id: serviceId,
    staff_id: staffId ?? undefined,
    option_ids: optionIds.length > 0 ? optionIds.join(',') : undefined,
  };
}

export const bookableDatesQuery = (choice: MenuChoice, year: number, month: number) =>
  queryOptions({
    queryKey: bookingKeys.bookableDates(choice, year, month),
    queryFn: ({ signal }) =>
      api.get<string[]>('/api/bookable-dates/', { signal, query: { year, month, ...menuQuery(choice) } }),
    staleTime: 60_000,
  });

/**
 * Free starts change with every booking. The date step's check is reused by the time step right after it (a
 * short staleTime); a taken slot removes the entry so that the list is loaded again.
 */
export const availabilityQuery = (choice: MenuChoice, date: string) =>
  queryOptions({
    queryKey: bookingKeys.availability(choice, date),
    queryFn: ({ signal }) => api.get<string[]>('/api/availability/', { signal, query: { date, ...menuQuery(choice) } }),
    staleTime: 15_000,
  });
