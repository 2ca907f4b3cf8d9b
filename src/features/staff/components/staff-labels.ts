import { STAFF_ROLE_LABELS, STAFF_ROLES } from '#src/shared/roles';
import type { StaffUser } from '#src/shared/schemas/staff';
import { paths } from '#src/lib/paths';

/** docs/screens.md#staff-list and docs/screens.md#staff-detail wording: the role in Japanese (オーナー, 受付, ネイリスト). */
export const roleLabel = (user: StaffUser) => STAFF_ROLE_LABELS[user.role];
/** The name 社員管理 shows: the full name (required on every account), the login ID only for an account without one. */
export const staffName = (user: StaffUser) => user.full_name || user.username;
/** What 社員管理 shows for a field left empty. */
export const NOT_SET = '未登録';
/** The role choices of the staff screens' Mantine Select, in the order of the roles' reach. */
export const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));
export const linkLabel = (user: StaffUser) => (user.is_line_linked ? '連携済み' : '未連携');
export const staffPath = paths.adminStaff;
export const STAFF_LIST_PATH = paths.adminStaffList;
