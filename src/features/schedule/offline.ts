import { answerByUrl, type OfflineFeature } from '../../lib/offline-engine';
import { scheduleKeys } from '../../lib/query-keys';

const CONFIGURED_DATES = '/api/admin/configured-dates/';
const AVAILABLE_SLOTS = '/api/admin/available-slots/';

/** The opening-time screen: its answers are kept whole, by URL; a saved day makes the kept ones stale. */
export const scheduleOffline: OfflineFeature = {
  name: 'schedule',
  persistedRoots: [scheduleKeys.all[0]],
  localFirstRoots: [scheduleKeys.all[0]],
  routes: [
    answerByUrl('schedule', CONFIGURED_DATES),
    answerByUrl('schedule', '/api/admin/users/'),
    {
      ...answerByUrl('schedule', AVAILABLE_SLOTS),
      store: async (db, method, url, data) => {
        if (method === 'GET') {
          await answerByUrl('schedule', AVAILABLE_SLOTS).store!(db, method, url, data, []);
          return;
        }
        // The day's slots changed: the calendar's and the day's kept answers are out of date.
        await db.schedule.where('url').startsWith(CONFIGURED_DATES).delete();
        await db.schedule.where('url').startsWith(AVAILABLE_SLOTS).delete();
      },
    },
  ],
};
