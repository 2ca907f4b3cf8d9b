import { OfflineGate } from '../../offline/offline-gate';
import { AdminShell } from './admin-shell';

/**
 * The signed-in admin panel: the offline layer, then the shell with its pages. A chunk of its own, so that the
 * login screen (what a first visit to /admin shows) does not download and run the panel.
 */
export function AdminPanel() {
  return (
    <OfflineGate>
      <AdminShell />
    </OfflineGate>
  );
}
