import type { StaffDatabase } from '../../lib/db';
import { answerByUrl, type OfflineRoute } from '../../lib/offline-engine';
import type { DayBoard, DayBoardColumn } from '../../shared/schemas/day-board';
import type { Reservation } from '../../shared/schemas/reservations';

/** GET /api/admin/day-board/ (api/day-board-api.ts). */
const DAY_BOARD_PATH = '/api/admin/day-board/';

const stored = answerByUrl('responses', DAY_BOARD_PATH);

/** The grid of the last board this device saw (any day): the salon's setting, unknown offline otherwise. */
async function lastGridMinutes(db: StaffDatabase): Promise<number> {
  const answers = await db.responses.where('url').startsWith(DAY_BOARD_PATH).toArray();
  const last = answers.sort((a, b) => b.savedAt - a.savedAt)[0]?.data as DayBoard | undefined;
  return last?.grid_minutes ?? 30;
}

/**
 * A day the device never showed while online, from the reservations it holds (the sync's rolling window): one
 * column per staff member with a booking, working time unknown (so none is drawn), cancelled ones left out as the
 * server leaves them out.
 */
async function boardFromReservations(db: StaffDatabase, date: string): Promise<DayBoard | undefined> {
  const rows = (await db.reservations
    .where('start_time')
    .between(`${date}T00:00:00`, `${date}T99`, true, false)
    .toArray()) as Reservation[];
  const booked = rows
    .filter((row) => row.status !== 'cancelled')
    .sort((a, b) => (a.start_time < b.start_time ? -1 : 1));
  if (booked.length === 0) return undefined;
  const columns = new Map<number, DayBoardColumn>();
  for (const row of booked) {
    const column = columns.get(row.staff_id) ?? {
      id: row.staff_id,
      name: row.staff_name,
      working: [],
      reservations: [],
    };
    column.reservations.push({
      reservation_number: row.reservation_number,
      reservation_code: row.reservation_code,
      start_time: row.start_time,
      end_time: row.end_time,
      customer_name: row.customer_name,
      service_name: row.service_name,
      option_names: row.options.map((option) => option.name),
      is_nominated: row.is_nominated,
      status: row.status,
    });
    columns.set(row.staff_id, column);
  }
  const staff = [...columns.values()].sort((a, b) => a.id - b.id);
  return { date, grid_minutes: await lastGridMinutes(db), staff };
}

/**
 * The 予約台帳 offline (docs/architecture.md#offline-design): read-only, as the list is. Each board answer is kept by
 * URL (and its query in the persisted cache, under the reservations' root); a day never opened online is drawn from
 * the local reservations.
 */
export const dayBoardRoute: OfflineRoute = {
  path: DAY_BOARD_PATH,
  read: async (db, url, params) => {
    const answer = await stored.read!(db, url, params);
    const date = url.searchParams.get('date');
    return answer ?? (date ? boardFromReservations(db, date) : undefined);
  },
  store: stored.store,
};
