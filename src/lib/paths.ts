/**
 * The app's screen addresses, built in one place: links, redirects and the e-mails' links agree on them. The route
 * table (src/app/routes) declares the same addresses as patterns.
 */
export const paths = {
  login: '/login',
  reserve: '/reserve',
  /** 前回と同じで予約: the wizard with that visit's menu, options and 指名 (server/outbox/rebooking.ts links here too). */
  rebook: (number: string) => `/reserve?rebook=${encodeURIComponent(number)}`,
  reservations: '/reservations',
  reservation: (number: string) => `/reservations/${encodeURIComponent(number)}`,
  reservationComplete: (number: string) => `/reservation-complete/${encodeURIComponent(number)}`,

  admin: '/admin',
  adminCallback: '/admin/callback',
  adminReservations: '/admin/reservations',
  adminReservation: (number: string) => `/admin/reservations/${encodeURIComponent(number)}`,
  /** 予約台帳: `?date=yyyy-MM-dd` (today when absent). */
  adminBoard: '/admin/board',
  adminSchedule: '/admin/schedule',
  adminCustomers: '/admin/customers',
  adminCustomer: (id: number) => `/admin/customers/${id}`,
  adminLineHistory: (query?: string) =>
    query ? `/admin/line-history?query=${encodeURIComponent(query)}` : '/admin/line-history',
  adminMenu: '/admin/menu',
  adminStaffList: '/admin/users',
  adminStaff: (id: number) => `/admin/users/${id}`,
  adminStatistics: '/admin/statistics',
  adminSettings: '/admin/settings',
} as const;
