import type { TokenAudience } from './token-session';

/**
 * Every React Query key of the app, in one place: the persisted cache (src/app/offline) keeps whole roots, live
 * updates invalidate roots, and features invalidate each other's roots without importing each other. A key's first
 * element is its root. List keys take their filters already normalised by the feature (empty values left out), so
 * that equal searches share one cache entry.
 */

/** The customer side. */
const customerSessionKeys = {
  all: ['customer'] as const,
  me: () => [...customerSessionKeys.all, 'me'] as const,
};

export const bookingKeys = {
  all: ['booking'] as const,
  salons: () => [...bookingKeys.all, 'salons'] as const,
  services: () => [...bookingKeys.all, 'services'] as const,
  /** GET /api/staff/: the staff members a customer may name (指名). */
  staff: () => [...bookingKeys.all, 'staff'] as const,
  /** Free days and starts depend on the whole menu choice: the service, its options (sorted) and the named staff. */
  bookableDates: (choice: BookingMenuKey, year: number, month: number) =>
    [...bookingKeys.all, 'bookable-dates', ...menuKeyParts(choice), year, month] as const,
  availability: (choice: BookingMenuKey, date: string) =>
    [...bookingKeys.all, 'availability', ...menuKeyParts(choice), date] as const,
};

/** What the free days and starts are asked for; `staffId` null = 指名なし. */
export interface BookingMenuKey {
  serviceId: number;
  optionIds: readonly number[];
  staffId: number | null;
}

function menuKeyParts({ serviceId, optionIds, staffId }: BookingMenuKey) {
  return [serviceId, staffId ?? 'any', [...optionIds].sort((a, b) => a - b).join(',')] as const;
}

export const reservationKeys = {
  all: ['reservation'] as const,
  detail: (number: string, audience: TokenAudience) => [...reservationKeys.all, number, audience] as const,
  /** The signed-in customer's own list (GET /api/reservations/). */
  mine: () => [...reservationKeys.all, 'mine'] as const,
  /** The reference images the customer attached to their reservation. */
  photos: (number: string) => [...reservationKeys.all, number, 'photos'] as const,
  /** A reservation opened by its e-mail link (no session). */
  byLink: (number: string, secret: string) => [...reservationKeys.all, number, 'link', secret] as const,
};

/** キャンセル待ち: the customer's own entries (GET /api/waitlist/) and one of them (the offer link). */
export const waitlistKeys = {
  all: ['waitlist'] as const,
  mine: () => [...waitlistKeys.all, 'mine'] as const,
  entry: (id: number) => [...waitlistKeys.all, 'entry', id] as const,
};

/** The staff side. */
export const adminAuthKeys = {
  all: ['admin-session'] as const,
  me: () => [...adminAuthKeys.all, 'me'] as const,
  /** The signed-in staff member's Web Push browsers and the VAPID key (GET /api/admin/push-subscriptions/). */
  pushSubscriptions: () => [...adminAuthKeys.all, 'push-subscriptions'] as const,
};

/** キャンセル待ち of one day as staff see it (GET /api/admin/waitlist/). */
export const adminWaitlistKeys = {
  all: ['admin-waitlist'] as const,
  day: (date: string) => [...adminWaitlistKeys.all, date] as const,
};

export const reservationAdminKeys = {
  all: ['admin-reservations'] as const,
  lists: () => [...reservationAdminKeys.all, 'list'] as const,
  list: (filters: object) => [...reservationAdminKeys.lists(), filters] as const,
  details: () => [...reservationAdminKeys.all, 'detail'] as const,
  detail: (reservationNumber: string) => [...reservationAdminKeys.details(), reservationNumber] as const,
  /** The カルテ of a reservation (note and photos); under this root so that a replayed photo upload refreshes it. */
  karte: (reservationNumber: string) => [...reservationAdminKeys.all, 'karte', reservationNumber] as const,
  timeSlots: (date: string) => [...reservationAdminKeys.all, 'time-slots', date] as const,
  services: () => [...reservationAdminKeys.all, 'services'] as const,
  /** The day board (GET /api/admin/day-board/): under this root, so that a reservation change refreshes it. */
  dayBoard: (date: string) => [...reservationAdminKeys.all, 'day-board', date] as const,
};

export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (filters: object) => [...customerKeys.lists(), filters] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (id: number) => [...customerKeys.details(), id] as const,
  reservations: (id: number) => [...customerKeys.detail(id), 'reservations'] as const,
  /** Completed visits with their カルテ (GET /api/admin/customers/{id}/visits/). */
  visits: (id: number) => [...customerKeys.detail(id), 'visits'] as const,
};

export const scheduleKeys = {
  all: ['schedule'] as const,
  configuredDates: (year: number, month: number, userId?: number) =>
    [...scheduleKeys.all, 'configured-dates', year, month, userId ?? 'self'] as const,
  slots: (date: string, userId?: number) => [...scheduleKeys.all, 'slots', date, userId ?? 'self'] as const,
  staff: () => [...scheduleKeys.all, 'staff'] as const,
  /** The weekly shift template (週間シフト) of one staff member. */
  shifts: (userId?: number) => [...scheduleKeys.all, 'shifts', userId ?? 'self'] as const,
  /** How each day of a month is decided (template, exception, closed day, holiday, off). */
  days: (year: number, month: number, userId?: number) =>
    [...scheduleKeys.all, 'days', year, month, userId ?? 'self'] as const,
  /** The salon's holidays (休業日) of a month: the same for every staff member. */
  holidays: (year: number, month: number) => [...scheduleKeys.all, 'holidays', year, month] as const,
};

export const menuKeys = {
  all: ['menu'] as const,
  list: () => [...menuKeys.all, 'list'] as const,
  /** GET /api/admin/options/: the salon's options with the menus that allow each. */
  options: () => [...menuKeys.all, 'options'] as const,
};

export const messageKeys = {
  all: ['line-history'] as const,
  list: (filters: object) => [...messageKeys.all, filters] as const,
};

export const staffKeys = {
  all: ['staff'] as const,
  list: () => [...staffKeys.all, 'list'] as const,
  detail: (id: number) => [...staffKeys.all, 'detail', id] as const,
};

export const settingsKeys = {
  all: ['settings'] as const,
  current: () => [...settingsKeys.all, 'current'] as const,
  /** This month's LINE pushes against the plan's limit (GET /api/admin/line-usage/). */
  lineUsage: () => [...settingsKeys.all, 'line-usage'] as const,
};

export const statisticsKeys = {
  all: ['statistics'] as const,
  summary: () => [...statisticsKeys.all, 'summary'] as const,
};
