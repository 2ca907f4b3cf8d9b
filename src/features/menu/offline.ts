import { answerByUrl, type OfflineFeature } from '../../lib/offline-engine';
import type { Service } from '../../shared/schemas/booking';
import { menuKeys } from '../../lib/query-keys';
import { getPage, type SyncPull } from '../../lib/sync-pulls';

const SERVICES = '/api/services/';
const servicesAnswer = answerByUrl('responses', SERVICES);

/** The menu, whole at every sync: the table and the answer as it was. */
const servicesPull: SyncPull = {
  name: 'services',
  run: async ({ db }) => {
    const services = await getPage<Service[]>(SERVICES, {});
    await db.transaction('rw', db.services, db.responses, async () => {
      await db.services.clear();
      if (Array.isArray(services.rows)) await db.services.bulkPut(services.rows);
      await db.responses.put({ url: SERVICES, data: services.rows, savedAt: Date.now() });
    });
    return {};
  },
};

/** The menu: the last answer as it was, else the services table the sync keeps. */
export const menuOffline: OfflineFeature = {
  name: 'menu',
  persistedRoots: [menuKeys.all[0]],
  localFirstRoots: [menuKeys.all[0]],
  pulls: [servicesPull],
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
