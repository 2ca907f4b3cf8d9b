import type { OfflineFeature } from '../../lib/offline-engine';
import { staffKeys } from '../../lib/query-keys';

/** Staff accounts: the last answers are shown at a cold start; nothing is read locally. */
export const staffAccountsOffline: OfflineFeature = { name: 'staff', persistedRoots: [staffKeys.all[0]] };
