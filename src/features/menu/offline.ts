import { answerByUrl, type OfflineFeature } from '../../lib/offline-engine';
import type { Service } from '../../shared/schemas/booking';
import { menuKeys } from '../../lib/query-keys';

const SERVICES = '/api/services/';
const servicesAnswer = answerByUrl('responses', SERVICES);

/** The menu: the last answer as it was, else the services table the sync keeps. */
export const menuOffline: OfflineFeature = {
  name: 'menu',
  persistedRoots: [menuKeys.all[0]],
  localFirstRoots: [menuKeys.all[0]],
  routes: [
    {
      path: SERVICES,
      read: async (db, url, params) => {
        const answer = await servicesAnswer.read!(db, url, params);
        if (answer !== undefined) return answer;
        const services = await db.services.orderBy('id').toArray();
        return services.length > 0 ? services : undefined;
      },
      store: async (db, method, url, data, params) => {
        await servicesAnswer.store!(db, method, url, data, params);
        if (method !== 'GET' || url.search || !Array.isArray(data)) return;
        await db.transaction('rw', db.services, async () => {
          await db.services.clear();
          await db.services.bulkPut(data as Service[]);
        });
      },
    },
  ],
};
