/** The staff screens of the admin area (SPEC.md §2, superusers only), wired by src/app/routes/admin. */
export { StaffListPage } from './components/staff-list-page';
export { StaffDetailPage } from './components/staff-detail-page';
export { AddStaffPage } from './components/add-staff-page';
export { staffKeys } from './api/staff-queries';
