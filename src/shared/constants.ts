/** Values shared by the browser, the server and the service worker. */

export const RESERVATION_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed', 'no_show'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Statuses that hold a staff member's time; the exclusion constraint covers exactly these. */
export const ACTIVE_RESERVATION_STATUSES = ['pending', 'confirmed'] as const satisfies readonly ReservationStatus[];

export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  pending: '保留中',
  confirmed: '確定',
  cancelled: 'キャンセル',
  completed: '完了',
  no_show: '無断欠席',
};

/**
 * Opening slots (the cells of the schedule calendar and of the weekly templates) are 30 minutes. Booking starts are on
 * the salon's own grid (salons.slot_minutes: 15, 30 or 60).
 */
export const SLOT_MINUTES = 30;
export const DEFAULT_SERVICE_DURATION = 90;
export const DEFAULT_SERVICE_PRICE = 0;
/** The time an option (オプション) may add: 0 to 180 minutes in steps of 5, as the database checks (migration 0009). */
export const MAX_OPTION_MINUTES = 180;
export const OPTION_MINUTES_STEP = 5;

/** The LINE login `state` values that route the browser after the callback. */
export const LINE_LOGIN_STATES = {
  checkReservation: 'check_reservation',
  confirmReservation: 'confirm_reservation',
  adminLink: 'admin_link',
  adminLogin: 'admin_login',
} as const;

/** JWT audiences: a token for one is never accepted by the other. */
export const TOKEN_AUDIENCES = { staff: 'staff', customer: 'customer' } as const;
export type TokenAudience = (typeof TOKEN_AUDIENCES)[keyof typeof TOKEN_AUDIENCES];

/** A staff password's minimum length: the server's schema decides, the screens check it before asking. */
export const PASSWORD_MIN_LENGTH = 8;
