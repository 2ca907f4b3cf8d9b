import type { StaffUser } from '#src/shared/schemas/staff';
import { paths } from '#src/lib/paths';

/** docs/screens.md#staff-list and docs/screens.md#staff-detail wording. */
export const roleLabel = (user: StaffUser) => (user.is_superuser ? 'Superuser' : '一般');
export const detailRoleLabel = (user: StaffUser) => (user.is_superuser ? 'Superuser' : '一般管理者');
export const linkLabel = (user: StaffUser) => (user.is_line_linked ? '連携済み' : '未連携');
export const staffPath = paths.adminStaff;
export const STAFF_LIST_PATH = paths.adminStaffList;
