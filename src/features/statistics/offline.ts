import type { OfflineFeature } from '../../lib/offline-engine';
import { statisticsKeys } from '../../lib/query-keys';

/** Statistics: the last answer is shown at a cold start; nothing is read locally. */
export const statisticsOffline: OfflineFeature = { name: 'statistics', persistedRoots: [statisticsKeys.all[0]] };
