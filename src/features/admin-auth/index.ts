/** The staff session and its screens (SPEC.md §2 admin login, admin callback, link registration; §4; §8). */
export { AdminLoginPage } from './components/admin-login-page';
export { AdminCallbackPage } from './components/admin-callback-page';
export { adminAuthKeys, adminProfileQuery, useAdminProfile } from './api/admin-auth-queries';
export { useAdminSession } from './hooks/use-admin-session';
export { installAdminTokenRefresh, isAdminSignedIn, signInAdmin, signOutAdmin, useAdminSignedIn } from './session';
