/**
 * Shared fixtures of the admin component tests (issue 6): a signed-in staff member, the profile and config
 * handlers every admin screen needs, reservation objects in the API's shape, and the screen-size, request and
 * notification helpers of those tests.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, vi } from 'vitest';
import type { AdminProfile } from '../../src/shared/schemas/auth';
import { loadNotifications } from '../../src/lib/notify';
import type { Reservation } from '../../src/shared/schemas/reservations';
import { publicConfig, reservationFixture } from './fixtures';
import { fakeMatchMedia } from './media';
import { server } from './msw-server';

export const ADMIN_ACCESS = 'admin-access-token';
export const ADMIN_REFRESH = 'admin-refresh-token';

export const superuserProfile: AdminProfile = {
  id: 1,
  username: 'admin',
  full_name: '店長 花子',
  email: 'owner@example.com',
  role: 'owner',
  is_superuser: true,
  is_line_linked: false,
  calendar_feed_url: 'http://localhost/api/calendar/AdminFeedToken01234567.ics',
  calendar_feed_includes_phone: false,
};

export const staffProfile: AdminProfile = {
  id: 2,
  username: 'staff',
  full_name: '佐藤 美咲',
  email: 'staff@example.com',
  role: 'nailist',
  is_superuser: false,
  is_line_linked: true,
  calendar_feed_url: 'http://localhost/api/calendar/StaffFeedToken01234567.ics',
  calendar_feed_includes_phone: false,
};

/** The one public config of the component tests, under the name the staff screens' tests know. */
export { publicConfig as testConfig } from './fixtures';

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
    http.get('/api/config/', () => HttpResponse.json(publicConfig)),
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

/** A reservation as GET /api/admin/reservations/ answers it, with its own id and number. */
export function makeReservation(overrides: Partial<Reservation> = {}): Reservation {
  sequence += 1;
  return reservationFixture({
    id: sequence,
    reservation_number: `0b8f6d2e-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    ...overrides,
  });
}

/** Makes Mantine's useMediaQuery see a desktop (≥ 768 px) or a phone; restore with the returned function. */
export function setDesktop(desktop: boolean): () => void {
  const original = window.matchMedia;
  window.matchMedia = fakeMatchMedia((query) => desktop && /min-width/.test(query));
  return () => {
    window.matchMedia = original;
  };
}

/**
 * For every test of the calling file, "now" is Thursday 2030-01-10 09:00 on this device: only Date is faked,
 * timers and promises run normally.
 */
export function fixDeviceClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2030, 0, 10, 9, 0, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Every request the mock server sees from now on, cloned so that bodies can be read after the handler did. */
export function recordRequests(): Request[] {
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });
  return requests;
}

/**
 * Mantine's notification store outlives a rendered tree: without this, a toast of one test is still on screen
 * (and found by queries) in the next.
 */
export async function clearNotifications(): Promise<void> {
  (await loadNotifications()).clean();
}

/** For the first find of a test: the admin area and its pages are lazy chunks that take a moment on a busy machine. */
export const LAZY = { timeout: 5000 } as const;
