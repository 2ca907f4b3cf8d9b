import { http, HttpResponse, type RequestHandler } from 'msw';
import type { CustomerProfile } from '../../src/shared/schemas/auth';
import type { Service } from '../../src/shared/schemas/booking';
import type { PublicConfig } from '../../src/shared/schemas/config';
import type { Reservation } from '../../src/shared/schemas/reservations';

/**
 * Answers of the customer API for the component tests of the customer screens (msw handlers and fixtures).
 * Shapes follow src/shared/schemas; tests override single handlers with `server.use(...)`.
 */

export const customerConfig: PublicConfig = {
  salon_name: 'ネイルサロン 桜',
  line: { mode: 'dev', login_channel_id: '1000000000', authorize_url: '/dev/line/authorize' },
  settings: {
    cancellation_deadline_days: 2,
    min_notice_minutes: 60,
    max_upcoming_per_customer: 3,
    business_start: '09:00',
    business_end: '21:00',
  },
};

export const services: Service[] = [
  { id: 11, name: 'ワンカラージェル', price: '5500', duration_minutes: 60, salon: 1 },
  { id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90, salon: 1 },
  { id: 13, name: 'アートコース', price: '12800', duration_minutes: 120, salon: 1 },
];

export const profile: CustomerProfile = {
  id: 7,
  name: '山田 花子',
  furigana: 'ヤマダ ハナコ',
  email: 'hanako@example.com',
  phone_number: '09012345678',
  line_display_name: 'はなこ',
  line_picture_url: '',
};

export const RESERVATION_NUMBER = '5b0f3c4e-8a51-4c1e-9d0e-2f7a9a6b1c3d';

export function reservationFixture(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: 101,
    reservation_number: RESERVATION_NUMBER,
    status: 'pending',
    salon: { name: 'ネイルサロン 桜' },
    service: { id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90 },
    service_name: 'グラデーションジェル',
    start_time: '2030-05-20T10:00:00',
    end_time: '2030-05-20T11:30:00',
    customer_id: 7,
    customer_name: '山田 花子',
    customer_furigana: 'ヤマダ ハナコ',
    customer_email: 'hanako@example.com',
    customer_phone: '09012345678',
    staff_id: 2,
    staff_name: '佐藤 美咲',
    cancellation_deadline: '2030-05-18T10:00:00',
    can_cancel: true,
    updated_at: '2030-05-10T09:00:00',
    ...overrides,
  };
}

export const errorBody = (detail: string, code: string) => ({ detail, code });

/** The calls every signed-in customer page makes: config, and the profile of the startup check. */
export function baseCustomerHandlers(): RequestHandler[] {
  return [
    http.get('/api/config/', () => HttpResponse.json(customerConfig)),
    http.get('/api/me/', () => HttpResponse.json(profile)),
  ];
}

/** The wizard's data: one salon, three services, the given bookable days and free starts per day. */
export function bookingHandlers(options: { bookable: string[]; slots: Record<string, string[]> }): RequestHandler[] {
  return [
    http.get('/api/salons/', () => HttpResponse.json([{ id: 1, name: 'ネイルサロン 桜' }])),
    http.get('/api/services/', () => HttpResponse.json(services)),
    http.get('/api/bookable-dates/', () => HttpResponse.json(options.bookable)),
    http.get('/api/availability/', ({ request }) => {
      const date = new URL(request.url).searchParams.get('date') ?? '';
      return HttpResponse.json(options.slots[date] ?? []);
    }),
  ];
}

// This file is also type-checked with the server's settings (no DOM types): the jsdom storage is reached this way.
const storage = () => (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage;

/** Stores a customer session as a LINE login would. */
export function signInCustomer(tokens = { access: 'customer-access', refresh: 'customer-refresh' }) {
  storage().setItem('access_token', tokens.access);
  storage().setItem('refresh_token', tokens.refresh);
}

export function signInStaff() {
  storage().setItem('adminAccessToken', 'staff-access');
  storage().setItem('adminRefreshToken', 'staff-refresh');
}
