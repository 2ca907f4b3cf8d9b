/**
 * Shared fixtures of the admin component tests (issue 6): a signed-in staff member, the profile and config
 * handlers every admin screen needs, and reservation objects in the API's shape.
 */
import { http, HttpResponse } from 'msw';
import type { ReservationStatus } from '../../src/shared/constants';
import type { AdminProfile } from '../../src/shared/schemas/auth';
import type { PublicConfig } from '../../src/shared/schemas/config';
import type { Reservation } from '../../src/shared/schemas/reservations';
import { server } from './msw-server';

export const ADMIN_ACCESS = 'admin-access-token';
export const ADMIN_REFRESH = 'admin-refresh-token';

export const superuserProfile: AdminProfile = {
  id: 1,
  username: 'admin',
  full_name: '店長 花子',
  email: 'owner@example.com',
  is_superuser: true,
  is_line_linked: false,
};

export const staffProfile: AdminProfile = {
  id: 2,
  username: 'staff',
  full_name: '佐藤 美咲',
  email: 'staff@example.com',
  is_superuser: false,
  is_line_linked: true,
};

export const testConfig: PublicConfig = {
  salon_name: 'ネイルサロン 桜',
  line: { mode: 'dev', login_channel_id: 'dev-channel', authorize_url: '/dev/line/authorize' },
  settings: {
    cancellation_deadline_days: 1,
    min_notice_minutes: 60,
    max_upcoming_per_customer: 3,
    business_start: '09:00',
    business_end: '21:00',
  },
};

/** Stores the admin token pair, as a successful login does. */
export function storeAdminTokens(access = ADMIN_ACCESS, refresh = ADMIN_REFRESH): void {
  window.localStorage.setItem('adminAccessToken', access);
  window.localStorage.setItem('adminRefreshToken', refresh);
}

/**
 * Signs in as `profile`: tokens stored, GET /api/admin/me/ and GET /api/config/ answered, and the live-update
 * stream answered with an empty stream that stays open (so that the shell does not reconnect in a loop).
 */
export function signInAs(profile: AdminProfile = superuserProfile): void {
  storeAdminTokens();
  server.use(
    http.get('/api/admin/me/', () => HttpResponse.json(profile)),
    http.get('/api/config/', () => HttpResponse.json(testConfig)),
    http.get('/api/admin/events/', () => openEventStream().response),
  );
}

/** A text/event-stream answer whose events the test pushes; `ready` is sent at once. */
export function openEventStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode('retry: 3000\nevent: ready\ndata: {}\n\n'));
    },
  });
  return {
    response: new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } }),
    send(event: string, data: unknown) {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    close() {
      controller.close();
    },
  };
}

let sequence = 0;

/** A reservation as GET /api/admin/reservations/ answers it. */
export function makeReservation(overrides: Partial<Reservation> & { status?: ReservationStatus } = {}): Reservation {
  sequence += 1;
  return {
    id: sequence,
    reservation_number: `0b8f6d2e-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    status: 'pending',
    salon: { name: 'ネイルサロン 桜' },
    service: { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90 },
    service_name: 'ジェルネイル',
    start_time: '2030-01-31T09:00:00',
    end_time: '2030-01-31T10:30:00',
    customer_id: 7,
    customer_name: '山田 花子',
    customer_furigana: 'ヤマダ ハナコ',
    customer_email: 'hanako@example.com',
    customer_phone: '09012345678',
    staff_id: 2,
    staff_name: '佐藤 美咲',
    cancellation_deadline: '2030-01-30T09:00:00',
    can_cancel: true,
    updated_at: '2030-01-10T00:00:00.000Z',
    ...overrides,
  };
}

/** Makes Mantine's useMediaQuery see a desktop (≥ 768 px) or a phone; restore with the returned function. */
export function setDesktop(desktop: boolean): () => void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    media: query,
    matches: desktop && /min-width/.test(query),
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}

/** For the first find of a test: the admin area and its pages are lazy chunks that take a moment on a busy machine. */
export const LAZY = { timeout: 5000 } as const;
