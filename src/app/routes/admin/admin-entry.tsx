import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { AdminCallbackPage } from '#src/features/admin-auth/components/admin-callback-page';
import { AdminLoginPage } from '#src/features/admin-auth/components/admin-login-page';
import { useAdminSession } from '#src/features/admin-auth/hooks/use-admin-session';
import { installAdminTokenRefresh, isAdminSignedIn } from '#src/features/admin-auth/session';
import { OutboxLoginNotice } from '../../offline/outbox-login-notice';

// From the moment the admin area loads, a 401 on a staff call refreshes the admin token once (docs/screens.md#admin-session).
installAdminTokenRefresh();

const loadPanel = () => import('./admin-panel');
const AdminPanel = lazy(async () => ({ default: (await loadPanel()).AdminPanel }));
// Signed in already (the front-desk tablet, a cold start offline): fetch the panel beside this chunk, not after it.
if (isAdminSignedIn()) void loadPanel();

/**
 * The admin area (`admin/*`), loaded lazily so that staff code never ships in the customer chunks: the LINE
 * return at /admin/callback, and behind the session the panel; signed out, every admin path shows the login.
 */
export function AdminEntry() {
  return (
    <Routes>
      <Route path="callback" element={<AdminCallbackPage />} />
      <Route path="*" element={<AdminSession />} />
    </Routes>
  );
}

function AdminSession() {
  const signedIn = useAdminSession();
  // Signed in, the offline layer (local data, outbox, sync) starts before the panel; signed out, changes still
  // waiting in the outbox are announced on the login screen.
  return signedIn ? (
    <Suspense fallback={<LoadingState />}>
      <AdminPanel />
    </Suspense>
  ) : (
    <>
      <OutboxLoginNotice />
      <AdminLoginPage />
    </>
  );
}
