import type { PublicConfig } from '../../src/shared/schemas/config';
import type { AdminCustomer } from '../../src/shared/schemas/customers';
import type { Reservation } from '../../src/shared/schemas/reservations';
import type { SalonSettings } from '../../src/shared/schemas/settings';

/**
 * Test data in the API's shapes (src/shared/schemas), one of each for the component tests of the customer and
 * the staff screens; a test overrides the fields it is about. No DOM here: tests/helpers/customer-api-mocks.ts
 * re-exports this file and is also type-checked with the server's settings.
 */

/** GET /api/config/ of a salon in LINE dev mode. */
export const publicConfig: PublicConfig = {
  salon_name: 'ネイルサロン 桜',
  line: { mode: 'dev', login_channel_id: '1000000000', authorize_url: '/dev/line/authorize' },
  settings: {
    cancellation_deadline_days: 2,
    min_notice_minutes: 60,
    max_upcoming_per_customer: 3,
    business_start: '09:00',
    business_end: '21:00',
    phone_number: '03-1234-5678',
    address: '東京都渋谷区神南1-2-3',
    map_url: 'https://maps.example.com/sakura',
    opening_hours_text: '火曜定休',
  },
};

/** GET /api/admin/settings/ of a salon with the defaults a new one starts with. */
export const salonSettingsFixture: SalonSettings = {
  salon_name: 'ネイルサロン 桜',
  cancellation_deadline_days: 1,
  min_notice_minutes: 60,
  max_upcoming_per_customer: 3,
  business_start: '09:00',
  business_end: '21:00',
  reminders_enabled: true,
  phone_number: '',
  address: '',
  map_url: '',
  opening_hours_text: '',
  slot_minutes: 30,
  buffer_minutes: 0,
  block_rounding_minutes: 5,
  closed_weekdays: [],
  line_monthly_push_limit: 200,
  auto_confirm_online_bookings: false,
  approval_after_incidents: 2,
  late_cancel_hours: 24,
  invoice_registration_number: '',
  tax_rounding: 'floor',
  opening_float: 0,
};

export const RESERVATION_NUMBER = '5b0f3c4e-8a51-4c1e-9d0e-2f7a9a6b1c3d';

/** A pending 90-minute reservation of customer 7 with staff member 2, well in the future. */
export function reservationFixture(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: 101,
    reservation_number: RESERVATION_NUMBER,
    reservation_code: 'K7M4Q9TX',
    status: 'pending',
    salon: { name: 'ネイルサロン 桜' },
    service: { id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90 },
    options: [],
    is_nominated: false,
    nomination_fee: '0',
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

/** Customer 7 as the staff API answers, not linked to LINE. */
export function customerFixture(overrides: Partial<AdminCustomer> = {}): AdminCustomer {
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
