import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The one mock API of the component tests. Tests add handlers with `server.use(http.get('/api/...', ...))`;
 * any request without a handler fails the test (onUnhandledRequest: 'error', see components.ts).
 */
export const server = setupServer(
  // Screens that show a カルテ (src/components/karte) get an empty one unless a test serves its own.
  http.get('/api/admin/reservations/:number/karte/', ({ params }) =>
    HttpResponse.json({
      reservation_number: String(params.number),
      status: 'completed',
      note: '',
      note_updated_at: null,
      photos: [],
    }),
  ),
  http.get('/api/admin/customers/:id/visits/', () => HttpResponse.json([])),
  http.get('/api/reservations/:number/photos/', () => HttpResponse.json([])),
  // 予約一覧 asks for the customer's キャンセル待ち: none unless a test serves some.
  http.get('/api/waitlist/', () => HttpResponse.json([])),
  // The statistics page's 売上 card (src/features/statistics/components/takings-card.tsx): no takings by default.
  http.get('/api/admin/sales/', () => HttpResponse.json([])),
  // The menu screen's オプション section (src/features/menu/components/salon-options.tsx): none unless a test serves some.
  http.get('/api/admin/options/', () => HttpResponse.json([])),
  // Asked by every staff screen (the shell's LINE budget banner): well under the limit unless a test says otherwise.
  http.get('/api/admin/line-usage/', () => HttpResponse.json({ month: '2030-01', pushes_sent: 0, limit: 200 })),
);
