import type { StaffDatabase } from '../../lib/db';
import { answerByUrl, type OfflineRoute, type OfflineFeature } from '../../lib/offline-engine';
import { scheduleKeys } from '../../lib/query-keys';

const STAFF_LIST = '/api/admin/users/';
const CONFIGURED_DATES = '/api/admin/configured-dates/';
const AVAILABLE_SLOTS = '/api/admin/available-slots/';
const SHIFTS = '/api/admin/shifts/';
const SCHEDULE_DAYS = '/api/admin/schedule-days/';
const HOLIDAYS = '/api/admin/holidays/';

/**
 * Any accepted change of working time (a day's slots, a day back to its shift, the weekly shift, a holiday) can
 * change every kept calendar, day and template answer: they are all dropped, only the staff list stays.
 */
async function forgetWorkingTime(db: StaffDatabase) {
  await db.schedule.filter((row) => !row.url.startsWith(STAFF_LIST)).delete();
}

/** Keeps a GET answer by URL; a change the server accepted makes the kept working-time answers stale. */
function keptUntilChanged(path: string): OfflineRoute {
  const byUrl = answerByUrl('schedule', path);
  return {
    ...byUrl,
    store: async (db, method, url, data, params) => {
      if (method === 'GET') await byUrl.store!(db, method, url, data, params);
      else await forgetWorkingTime(db);
    },
  };
}

/**
 * The opening-time screen: its answers are kept whole, by URL, so that the calendar, a day's times and the weekly
 * shift can be read offline once seen; changing them needs the server (the screen says so offline).
 */
export const scheduleOffline: OfflineFeature = {
  name: 'schedule',
  persistedRoots: [scheduleKeys.all[0]],
  localFirstRoots: [scheduleKeys.all[0]],
  routes: [
    answerByUrl('schedule', CONFIGURED_DATES),
    answerByUrl('schedule', STAFF_LIST),
    answerByUrl('schedule', SCHEDULE_DAYS),
    keptUntilChanged(AVAILABLE_SLOTS),
    keptUntilChanged(SHIFTS),
    keptUntilChanged(HOLIDAYS),
    // DELETE /api/admin/holidays/{date}/: nothing to read, only the kept answers to forget.
    { path: /^\/api\/admin\/holidays\/([^/]+)\/$/, store: (db) => forgetWorkingTime(db) },
  ],
};
