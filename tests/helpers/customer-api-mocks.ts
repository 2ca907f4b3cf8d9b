import { http, HttpResponse, type RequestHandler } from 'msw';
import type { CustomerProfile } from '../../src/shared/schemas/auth';
import type { BookableStaff, Service } from '../../src/shared/schemas/booking';
import { publicConfig } from '../setup/fixtures';

/**
 * Answers of the customer API for the component tests of the customer screens (msw handlers and fixtures).
 * Shapes follow src/shared/schemas; tests override single handlers with `server.use(...)`.
 */

// The fixtures shared with the staff screens' tests (tests/setup/fixtures.ts), under the names these tests know.
export { publicConfig as customerConfig, RESERVATION_NUMBER, reservationFixture } from '../setup/fixtures';

export const services: Service[] = [
  { id: 11, name: 'ワンカラージェル', price: '5500', duration_minutes: 60, salon: 1, options: [] },
  {
    id: 12,
    name: 'グラデーションジェル',
    price: '6600',
    duration_minutes: 90,
    salon: 1,
    options: [
      { id: 21, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
      { id: 22, name: 'ストーン10粒', price: '550', duration_minutes: 10 },
    ],
  },
  { id: 13, name: 'アートコース', price: '12800', duration_minutes: 120, salon: 1, options: [] },
];

/** GET /api/staff/: one nailist with a picture, a profile and a 指名料, one without any. */
export const bookableStaff: BookableStaff[] = [
  {
    id: 2,
    name: '佐藤 美咲',
    picture_url: 'https://example.com/misaki.jpg',
    profile: 'ニュアンスアートが得意です。',
    nomination_fee: '1100',
  },
  { id: 3, name: '鈴木 彩', picture_url: '', profile: '', nomination_fee: '0' },
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

export const errorBody = (detail: string, code: string) => ({ detail, code });

/** The calls every signed-in customer page makes: config, and the profile of the startup check. */
export function baseCustomerHandlers(): RequestHandler[] {
  return [
    http.get('/api/config/', () => HttpResponse.json(publicConfig)),
    http.get('/api/me/', () => HttpResponse.json(profile)),
  ];
}

/** The wizard's data: one salon, three services, two nailists, the given bookable days and free starts per day. */
export function bookingHandlers(options: { bookable: string[]; slots: Record<string, string[]> }): RequestHandler[] {
  return [
    http.get('/api/salons/', () => HttpResponse.json([{ id: 1, name: 'ネイルサロン 桜' }])),
    http.get('/api/services/', () => HttpResponse.json(services)),
    http.get('/api/staff/', () => HttpResponse.json(bookableStaff)),
    http.get('/api/bookable-dates/', () => HttpResponse.json(options.bookable)),
    http.get('/api/availability/', ({ request }) => {
      const date = new URL(request.url).searchParams.get('date') ?? '';
      return HttpResponse.json(options.slots[date] ?? []);
    }),
  ];
}

// This file is also type-checked with the server's settings (no DOM types): the jsdom storage is reached this way.
const storage = () =>
  (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage;

/** Stores a customer session as a LINE login would. */
export function signInCustomer(tokens = { access: 'customer-access', refresh: 'customer-refresh' }) {
  storage().setItem('access_token', tokens.access);
  storage().setItem('refresh_token', tokens.refresh);
}

export function signInStaff() {
  storage().setItem('adminAccessToken', 'staff-access');
  storage().setItem('adminRefreshToken', 'staff-refresh');
}
