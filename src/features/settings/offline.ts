import type { OfflineFeature } from '../../lib/offline-engine';
import { settingsKeys } from '../../lib/query-keys';

/** Salon settings: the last answer is shown at a cold start; nothing is read locally. */
export const settingsOffline: OfflineFeature = { name: 'settings', persistedRoots: [settingsKeys.all[0]] };
