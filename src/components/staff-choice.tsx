import { NativeSelect } from '@mantine/core';
import { useQueries, useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../lib/api-client';
import { adminAuthKeys, scheduleKeys } from '../lib/query-keys';
import { canSeeAllBookings, isOwner, roleOf } from '../shared/roles';
import type { AdminProfile } from '../shared/schemas/auth';
import type { BookableStaff } from '../shared/schemas/booking';
import type { StaffUser } from '../shared/schemas/staff';

/** A staff member the desk can book for. */
type ChoosableStaff = Pick<StaffUser, 'id' | 'username' | 'full_name' | 'is_active'>;

/**
 * The owner chooses among every account (GET /api/admin/users/); the front desk, who may not read the accounts,
 * among the staff customers can book (GET /api/staff/).
 */
async function fetchChoosableStaff(owner: boolean, signal: AbortSignal): Promise<ChoosableStaff[]> {
  if (owner) return api.get<StaffUser[]>('/api/admin/users/', { signal });
  const bookable = await api.get<BookableStaff[]>('/api/staff/', { signal });
  return bookable.map((member) => ({ id: member.id, username: '', full_name: member.name, is_active: true }));
}

/** GET /api/admin/detailed-time-slots/ of one staff member and day. */
interface StaffDaySlots {
  available_times: string[];
  outside_business_hours: string[];
  booked_times: string[];
}

/** Under (営業時間外) the dialogs list the times outside the salon's hours or the chosen staff member's slots. */
export const OUTSIDE_HOURS_NOTE = '(営業時間外) は、サロンの営業時間外または選んだスタッフの受付時間外です。';

interface StaffChoiceOptions {
  /** `yyyy-MM-dd`, or null before a date is chosen. */
  date: string | null;
  /**
   * The feature's cache key of that day's time slots; each staff member's answer is kept under it (plus the staff
   * id), so the feature's invalidation of the day after a booking reaches every staff member's list.
   */
  slotsKey: (date: string) => QueryKey;
  /** Times that can no longer be booked (today's past ones): they do not count as free time. */
  bookable?: (time: string) => boolean;
  /** A superuser's first choice (moving a reservation: the staff member it is with), instead of the automatic one. */
  initialStaffId?: number;
  /** The menu being booked: only the starts it fits are listed (absent: each free cell). */
  menu?: SlotsMenu;
}

interface StaffChoice {
  /** Only the owner and the front desk choose; a nailist books for themselves (the server insists too). */
  canChoose: boolean;
  staff: ChoosableStaff[];
  /** The staff member the booking goes to (undefined: the caller, for an ordinary staff member). */
  staffId: number | undefined;
  choose(staffId: number): void;
  /** The chosen staff member's day, as the time select lists it. */
  slots: { data: StaffDaySlots | undefined; isPending: boolean; isError: boolean; error: unknown };
  /** How many bookable free times each staff member has that day (for the select's labels). */
  freeCount(staffId: number): number | undefined;
  /** The signed-in staff member (whom a nailist's booking goes to). */
  viewerId: number | undefined;
}

/**
 * The signed-in staff member (GET /api/admin/me/, the cache entry the admin shell already filled), for screens that
 * word things differently for a superuser.
 */
export function useAdminViewer() {
  return useQuery({
    queryKey: adminAuthKeys.me(),
    queryFn: ({ signal }) => api.get<AdminProfile>('/api/admin/me/', { signal }),
    staleTime: Infinity,
  });
}

/** The booking being made: the day's starts are then the ones its whole length fits (fitting-starts.ts on the server). */
export interface SlotsMenu {
  serviceId: number;
  optionIds: readonly number[];
}

function fetchSlots(date: string, userId: number | undefined, menu: SlotsMenu | undefined, signal?: AbortSignal) {
  const query = {
    date,
    user_id: userId,
    service_id: menu?.serviceId,
    option_ids: menu && menu.optionIds.length > 0 ? [...menu.optionIds].sort((a, b) => a - b).join(',') : undefined,
  };
  return api.get<StaffDaySlots>('/api/admin/detailed-time-slots/', { query, signal });
}

const menuKeyOf = (menu: SlotsMenu | undefined) =>
  menu ? `${menu.serviceId}+${[...menu.optionIds].sort((a, b) => a - b).join(',')}` : 'cell';

/**
 * Whose time a front-desk booking takes. A superuser picks among the active staff; until they do, the choice is
 * themselves when they have free time that day, else the staff member with the most free time (the admin
 * often has no opening slots of their own, which would label every time (営業時間外)).
 */
export function useStaffChoice({
  date,
  slotsKey,
  bookable = () => true,
  initialStaffId,
  menu,
}: StaffChoiceOptions): StaffChoice {
  const profile = useAdminViewer();
  const role = profile.data ? roleOf(profile.data) : 'nailist';
  const canChoose = canSeeAllBookings(role);
  const owner = isOwner(role);
  const staffList = useQuery({
    queryKey: owner ? scheduleKeys.staff() : [...scheduleKeys.staff(), 'bookable'],
    queryFn: ({ signal }) => fetchChoosableStaff(owner, signal),
    enabled: canChoose,
    staleTime: 5 * 60_000,
  });
  const staff = (staffList.data ?? []).filter((member) => member.is_active);
  const [picked, setPicked] = useState<number | undefined>(initialStaffId);

  // Every active staff member's day, so that the default can go to someone with free time.
  const ids = canChoose ? staff.map((member) => member.id) : [];
  const perStaff = useQueries({
    queries: ids.map((id) => ({
      queryKey: [...slotsKey(date ?? ''), id, menuKeyOf(menu)],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSlots(date!, id, menu, signal),
      enabled: Boolean(date),
      // Another desk may book at any moment: ask again whenever the day is picked again.
      staleTime: 0,
    })),
  });
  const own = useQuery({
    queryKey: [...slotsKey(date ?? ''), 'self', menuKeyOf(menu)],
    queryFn: ({ signal }) => fetchSlots(date!, undefined, menu, signal),
    enabled: Boolean(date) && profile.isSuccess && !canChoose,
    staleTime: 0,
  });

  const free = new Map<number, number>();
  ids.forEach((id, index) => {
    const data = perStaff[index]?.data;
    if (data) free.set(id, data.available_times.filter(bookable).length);
  });
  const allLoaded = perStaff.every((query) => !query.isPending);

  let staffId: number | undefined;
  if (canChoose) {
    if (picked !== undefined && ids.includes(picked)) {
      staffId = picked;
    } else if (date && allLoaded) {
      const selfId = profile.data!.id;
      const mostFree = [...ids].sort((a, b) => (free.get(b) ?? 0) - (free.get(a) ?? 0))[0];
      staffId =
        (free.get(selfId) ?? 0) > 0 || mostFree === undefined || (free.get(mostFree) ?? 0) === 0 ? selfId : mostFree;
      if (!ids.includes(staffId)) staffId = mostFree;
    } else {
      staffId = undefined;
    }
  }

  let slots: StaffChoice['slots'];
  if (!canChoose) {
    slots = { data: own.data, isPending: own.isPending || profile.isPending, isError: own.isError, error: own.error };
  } else {
    const index = staffId === undefined ? -1 : ids.indexOf(staffId);
    const query = index >= 0 ? perStaff[index] : undefined;
    slots = {
      data: query?.data,
      isPending: !query || query.isPending || staffList.isPending,
      isError: Boolean(query?.isError || staffList.isError),
      error: query?.error ?? staffList.error,
    };
  }

  return {
    canChoose,
    staff,
    staffId,
    choose: setPicked,
    slots,
    freeCount: (id) => free.get(id),
    viewerId: profile.data?.id,
  };
}

/** The staff select of the front-desk dialogs (the owner and the front desk only; shows each member's free times that day). */
export function StaffChoiceSelect({ choice, onChange }: { choice: StaffChoice; onChange?: () => void }) {
  if (!choice.canChoose) return null;
  const label = (member: ChoosableStaff) => {
    const count = choice.freeCount(member.id);
    const name = member.full_name || member.username;
    return count === undefined ? name : `${name}（空き ${count}枠）`;
  };
  return (
    <NativeSelect
      label="担当スタッフ"
      required
      value={choice.staffId === undefined ? '' : String(choice.staffId)}
      onChange={(event) => {
        if (!event.currentTarget.value) return;
        choice.choose(Number(event.currentTarget.value));
        onChange?.();
      }}
      data={[
        ...(choice.staffId === undefined ? [{ value: '', label: '日付を選ぶと空いているスタッフを選びます' }] : []),
        ...choice.staff.map((member) => ({ value: String(member.id), label: label(member) })),
      ]}
    />
  );
}
