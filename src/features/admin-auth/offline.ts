import { answerByUrl, type OfflineFeature } from '../../lib/offline-engine';
import { adminAuthKeys } from '../../lib/query-keys';

/** Who is signed in, and the salon's public settings: the last answers, so the shell opens offline. */
export const adminAuthOffline: OfflineFeature = {
  name: 'admin-auth',
  persistedRoots: [adminAuthKeys.all[0], 'config'],
  localFirstRoots: [adminAuthKeys.all[0]],
  routes: [answerByUrl('responses', '/api/admin/me/'), answerByUrl('responses', '/api/config/')],
};
