import { adminAuthOffline } from '../../features/admin-auth/offline';
import { customersOffline } from '../../features/customers/offline';
import { menuOffline } from '../../features/menu/offline';
import { messagesOffline } from '../../features/messages/offline';
import { registerOffline } from '../../features/register/offline/offline';
import { reservationsOffline } from '../../features/reservations-admin/offline';
import { scheduleOffline } from '../../features/schedule/offline';
import { settingsOffline } from '../../features/settings/offline';
import { staffAccountsOffline } from '../../features/staff/offline';
import { statisticsOffline } from '../../features/statistics/offline';
import { createOfflineEngine } from '../../lib/offline-engine';
import { registerSyncPulls } from '../../lib/sync';
import './staff-changes';

/** Every feature of the staff app that keeps data on the device, run by one engine (src/lib/offline-engine.ts). */
export const staffOfflineEngine = createOfflineEngine([
  reservationsOffline,
  customersOffline,
  scheduleOffline,
  menuOffline,
  adminAuthOffline,
  staffAccountsOffline,
  settingsOffline,
  statisticsOffline,
  messagesOffline,
  registerOffline,
]);

// What the sync pulls is the features' declarations, in their order (the profile before the schedule's calendar).
registerSyncPulls(staffOfflineEngine.pulls);

export const readLocal = staffOfflineEngine.read;
export const storeAnswer = staffOfflineEngine.store;
