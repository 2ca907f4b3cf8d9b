import type { AdminCustomer } from '../../../shared/schemas/customers';
import type { Reservation } from '../../../shared/schemas/reservations';

/** Test data in the API's shapes (src/shared/schemas); used by the component tests only. */
export function customer(overrides: Partial<AdminCustomer> = {}): AdminCustomer {
  return {
    id: 7,
    name: '山田 花子',
    furigana: 'ヤマダ ハナコ',
    email: 'hanako@example.com',
    phone_number: '09012345678',
    notes: '',
    line_user_id: null,
    line_display_name: '',
    line_picture_url: '',
    is_line_linked: false,
    assigned_staff_id: 1,
    updated_at: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export function reservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: 1,
    reservation_number: 'R-0001',
    status: 'confirmed',
    salon: { name: 'ネイルサロン Lumière' },
    service: { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90 },
    service_name: 'ジェルネイル',
    start_time: '2025-07-01T10:00:00',
    end_time: '2025-07-01T11:30:00',
    customer_id: 7,
    customer_name: '山田 花子',
    customer_furigana: 'ヤマダ ハナコ',
    customer_email: 'hanako@example.com',
    customer_phone: '09012345678',
    staff_id: 1,
    staff_name: '管理者',
    cancellation_deadline: '2025-06-30T10:00:00',
    can_cancel: true,
    updated_at: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

/** Makes Mantine's useMediaQuery report a desktop (≥ 768 px) screen until the returned function is called. */
export function pretendDesktop(): () => void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...original(query),
    media: query,
    matches: /min-width:\s*48em/.test(query),
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}

/** Every request the mock server saw, cloned so that bodies can be read after the handler did. */
export function recordRequests(server: {
  events: { on: (e: 'request:start', cb: (a: { request: Request }) => void) => void };
}) {
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
  const { loadNotifications } = await import('../../../lib/notify');
  (await loadNotifications()).clean();
}
