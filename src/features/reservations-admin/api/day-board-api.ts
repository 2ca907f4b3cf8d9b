import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { reservationAdminKeys } from '#src/lib/query-keys';
import { dayBoardSchema, type DayBoard } from '#src/shared/schemas/day-board';

/** GET /api/admin/day-board/?date=yyyy-MM-dd: the day's columns (a nailist gets their own only), checked on arrival. */
export async function fetchDayBoard(date: string, signal?: AbortSignal): Promise<DayBoard> {
  return dayBoardSchema.parse(await api.get<unknown>('/api/admin/day-board/', { signal, query: { date } }));
}

export const dayBoardQuery = (date: string) =>
  queryOptions({
    queryKey: reservationAdminKeys.dayBoard(date),
    queryFn: ({ signal }) => fetchDayBoard(date, signal),
    staleTime: 0,
  });
