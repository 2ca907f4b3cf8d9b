import { answerByUrl, type OfflineFeature } from '../../lib/offline-engine';
import { adminAuthKeys } from '../../lib/query-keys';
import { keepAnswer, type SyncPull } from '../../lib/sync-pulls';

const PROFILE = '/api/admin/me/';

/** The staff profile, whole at every sync; the pulls that come after it get it (the schedule asks is_superuser). */
const profilePull: SyncPull = {
  name: 'profile',
  run: async ({ db }) => ({ value: await keepAnswer(db, 'responses', PROFILE) }),
};

/** Who is signed in, and the salon's public settings: the last answers, so the shell opens offline. */
export const adminAuthOffline: OfflineFeature = {
  name: 'admin-auth',
  persistedRoots: [adminAuthKeys.all[0], 'config'],
  localFirstRoots: [adminAuthKeys.all[0]],
  pulls: [profilePull],
  routes: [answerByUrl('responses', PROFILE), answerByUrl('responses', '/api/config/')],
};
