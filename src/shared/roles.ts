/**
 * Staff roles and what each may reach (docs/architecture.md#roles-and-scope), in one place for the server's checks
 * and the browser's navigation. The database keeps `staff_users.is_superuser` true exactly for an owner.
 */
export const STAFF_ROLES = ['owner', 'front_desk', 'nailist'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'オーナー',
  front_desk: '受付',
  nailist: 'ネイリスト',
};

/** Settings, staff accounts, statistics, holidays and shifts: the owner alone. */
export function isOwner(role: StaffRole): boolean {
  return role === 'owner';
}

/**
 * Every reservation and customer (and their messages and カルテ), booking for any nailist, 会計: the owner and the
 * front desk. A nailist reaches only their own reservations and customers.
 */
export function canSeeAllBookings(role: StaffRole): boolean {
  return role === 'owner' || role === 'front_desk';
}

/** The role an account had before roles existed, for a client that still sends only `is_superuser`. */
export function roleFromSuperuserFlag(isSuperuser: boolean): StaffRole {
  return isSuperuser ? 'owner' : 'nailist';
}

/** The role of a signed-in staff member; a profile kept on the device from before roles existed has only the flag. */
export function roleOf(profile: { role?: StaffRole; is_superuser: boolean }): StaffRole {
  return profile.role ?? roleFromSuperuserFlag(profile.is_superuser);
}
