import type { StaffDatabase } from '../../lib/db';
import { answerByUrl, type OfflineRoute, type OfflineFeature } from '../../lib/offline-engine';
import { scheduleKeys } from '../../lib/query-keys';
import { keepAnswer, type SyncPull } from '../../lib/sync-pulls';
import type { AdminProfile } from '../../shared/schemas/auth';

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
 * The calendar the opening-time screen opens on (this month and the next) and, for a superuser, the staff list.
 * The screen asks for a superuser's own calendar with user_id, everyone else's without: it runs after the profile.
 */
const schedulePull: SyncPull = {
  name: 'schedule',
  after: ['profile'],
  run: async ({ db, now, resultOf }) => {
    const profile = (await resultOf('profile')) as AdminProfile | undefined;
    const userId = profile?.is_superuser ? profile.id : undefined;
    const months = [0, 1].map((offset) => new Date(now.getFullYear(), now.getMonth() + offset, 1));
    await Promise.all([
      ...months.map((month) =>
        keepAnswer(db, 'schedule', CONFIGURED_DATES, {
          year: month.getFullYear(),
          month: month.getMonth() + 1,
          user_id: userId,
        }),
      ),
      profile?.is_superuser ? keepAnswer(db, 'schedule', STAFF_LIST) : Promise.resolve(),
    ]);
    return {};
  },
};

/**
 * The opening-time screen: its answers are kept whole, by URL, so that the calendar, a day's times and the weekly
 * shift can be read offline once seen; changing them needs the server (the screen says so offline).
 */
export const scheduleOffline: OfflineFeature = {
  name: 'schedule',
  persistedRoots: [scheduleKeys.all[0]],
  localFirstRoots: [scheduleKeys.all[0]],
  pulls: [schedulePull],
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
