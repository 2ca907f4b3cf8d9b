import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { reservationAdminKeys } from '#src/lib/query-keys';
import type { DayBoard } from '#src/shared/schemas/day-board';

const DAY_BOARD_PATH = '/api/admin/day-board/';

/**
 * GET /api/admin/day-board/?date=yyyy-MM-dd: the day's columns (a nailist gets their own only). Typed rather than
 * parsed, as the other staff fetchers (reservations-admin-api.ts): the server checks its answer against the schema.
 */
function fetchDayBoard(date: string, signal?: AbortSignal): Promise<DayBoard> {
  return api.get<DayBoard>(DAY_BOARD_PATH, { signal, query: { date } });
}

/** Under the reservations' root: every reservation change and live event refreshes the board (query-keys.ts). */
export const dayBoardQuery = (date: string) =>
  queryOptions({
    queryKey: reservationAdminKeys.dayBoard(date),
    queryFn: ({ signal }) => fetchDayBoard(date, signal),
    staleTime: 0,
  });
