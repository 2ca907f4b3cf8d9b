import type { OfflineFeature } from '../../lib/offline-engine';
import { messageKeys } from '../../lib/query-keys';

/** LINE history: the last answers are shown at a cold start; nothing is read locally. */
export const messagesOffline: OfflineFeature = { name: 'messages', persistedRoots: [messageKeys.all[0]] };
