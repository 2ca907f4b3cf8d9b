/**
 * The whole data model. Every table carries `salon_id` (one deployment serves one salon today, docs/architecture.md).
 * The exclusion constraints that make double booking impossible are not expressible here: they live in the
 * custom migrations `0001_reservation_overlap.sql` (per staff member) and `0006_abuse_limits.sql` (per customer).
 */
import { sql } from 'drizzle-orm';
import type { RefundedLine } from '../../src/shared/money/refund';
import type {
  AppliedDiscount,
  Payment,
  PaymentMethod,
  ReceiptLine,
  TaxByRate,
  TaxRounding,
} from '../../src/shared/money/types';
import type { StaffRole } from '../../src/shared/roles';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** One chosen option as a reservation keeps it (its price and time when booked). */
export interface ReservationOptionSnapshot {
  id: number;
  name: string;
  price: number;
  duration_minutes: number;
}

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const salons = pgTable('salons', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Days before the start after which a customer can no longer cancel online; 0 = until the start. */
  cancellation_deadline_days: integer('cancellation_deadline_days').notNull().default(1),
  min_notice_minutes: integer('min_notice_minutes').notNull().default(60),
  max_upcoming_per_customer: integer('max_upcoming_per_customer').notNull().default(3),
  business_start: time('business_start').notNull().default('09:00'),
  business_end: time('business_end').notNull().default('21:00'),
  reminders_enabled: boolean('reminders_enabled').notNull().default(true),
  /** How customers reach the salon (migration 0007); '' = not given, not shown. */
  phone_number: text('phone_number').notNull().default(''),
  address: text('address').notNull().default(''),
  /** An https link to a map of the salon. */
  map_url: text('map_url').notNull().default(''),
  /** Free text such as 「火曜定休」, shown beside the contact details. */
  opening_hours_text: text('opening_hours_text').notNull().default(''),
  // Scheduling (migration 0009, docs/architecture.md#booking-rules).
  /** Starts are offered on this grid (minutes after the hour): 15, 30 or 60. */
  slot_minutes: integer('slot_minutes').notNull().default(30),
  /** Cleaning time after every booking that no other booking of the staff member may use (0–60, 5-minute steps). */
  buffer_minutes: integer('buffer_minutes').notNull().default(0),
  /** A booking's total time is rounded up to this many minutes for the time it blocks (5 = as booked). */
  block_rounding_minutes: integer('block_rounding_minutes').notNull().default(5),
  /** Weekly closed days (定休日), 0 = Sunday … 6 = Saturday: the weekly shift templates do not apply on them. */
  closed_weekdays: integer('closed_weekdays')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  /**
   * LINE pushes the salon's LINE plan allows a month (migration 0012; the free plan: 200); 0 = no limit. At the
   * limit customer notices go by e-mail instead (server/outbox/line-budget.ts).
   */
  line_monthly_push_limit: integer('line_monthly_push_limit').notNull().default(200),
  // No-show and late-cancel rules (migration 0015, server/db/incidents.ts).
  /** Online bookings are created confirmed (false: pending until staff confirm them, the original behaviour). */
  auto_confirm_online_bookings: boolean('auto_confirm_online_bookings').notNull().default(false),
  /** 無断欠席 + 直前キャンセル from which a customer's online bookings wait for staff approval (1–10); null = off. */
  approval_after_incidents: integer('approval_after_incidents').default(2),
  /** A cancel less than this many hours before the start is a 直前キャンセル (1–168). */
  late_cancel_hours: integer('late_cancel_hours').notNull().default(24),
  // The register (migration 0022, docs/architecture.md#register-会計).
  /** 適格請求書発行事業者の登録番号: `T` and 13 digits, printed on receipts; '' = not registered. */
  invoice_registration_number: text('invoice_registration_number').notNull().default(''),
  /** How a receipt's tax per rate is rounded to yen: floor (切り捨て), round or ceil. */
  tax_rounding: text('tax_rounding', { enum: ['floor', 'round', 'ceil'] })
    .notNull()
    .default('floor')
    .$type<TaxRounding>(),
  /** 釣り銭準備金: the cash in the drawer when the day opens (yen). */
  opening_float: integer('opening_float').notNull().default(0),
  ...timestamps,
});

export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    username: text('username').notNull(),
    full_name: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    /** scrypt hash (see server/features/auth/passwords.ts); null: password login disabled. */
    password_hash: text('password_hash'),
    /** True exactly for role `owner` (a check says so; migration 0024's trigger keeps the two together). */
    is_superuser: boolean('is_superuser').notNull().default(false),
    /** オーナー, 受付 or ネイリスト (src/shared/roles.ts says what each may reach). */
    role: text('role').$type<StaffRole>().notNull().default('nailist'),
    is_active: boolean('is_active').notNull().default(true),
    line_user_id: text('line_user_id'),
    /**
     * Every staff token carries the version it was issued under; a password change or a deactivation raises it,
     * so every access and refresh token issued before stops working at once (server/plugins/auth.ts checks it).
     */
    token_version: integer('token_version').notNull().default(0),
    // Nomination (指名, migration 0009): what customers see when they choose their nailist.
    /** Whether customers can book this staff member (and whether 指名なし may assign them). */
    is_bookable: boolean('is_bookable').notNull().default(true),
    /** 指名料 in yen, added to the price when a customer names this staff member. */
    nomination_fee: integer('nomination_fee').notNull().default(0),
    /** A short public profile (e.g. 「ニュアンスアートが得意です」). */
    profile: text('profile').notNull().default(''),
    /** An https picture shown in the staff choice; '' = none. */
    picture_url: text('picture_url').notNull().default(''),
    /**
     * Raised by every change of this staff member's working time (template, exception, closed day, holiday). A
     * customer booking re-reads it inside its transaction: if it moved since availability was read, the booking is
     * retried against the new schedule (server/features/reservations/book.ts and reschedule.ts), so no change can
     * strand a booking made at the same moment.
     */
    schedule_version: integer('schedule_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check('staff_users_nomination_fee_check', sql`${t.nomination_fee} >= 0`),
    check('staff_users_role_check', sql`${t.role} in ('owner', 'front_desk', 'nailist')`),
    check('staff_users_owner_is_superuser_check', sql`${t.is_superuser} = (${t.role} = 'owner')`),
    uniqueIndex('staff_users_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('staff_users_line_user_id_key').on(t.line_user_id),
  ],
);

export const services = pgTable(
  'services',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    name: text('name').notNull(),
    /** Yen, whole numbers. */
    price: integer('price').notNull(),
    duration_minutes: integer('duration_minutes').notNull(),
    /** False once deleted: reservations keep pointing at it, booking no longer offers it. */
    is_active: boolean('is_active').notNull().default(true),
    sort_order: integer('sort_order').notNull().default(0),
    /**
     * 再来店のご案内: days after a completed visit of this service when a customer with nothing booked gets one LINE
     * message with a link to book it again (server/outbox/rebooking.ts); null: no such message.
     */
    rebook_cycle_days: integer('rebook_cycle_days'),
    ...timestamps,
  },
  (t) => [
    check('services_price_check', sql`${t.price} >= 0`),
    check(
      'services_rebook_cycle_check',
      sql`${t.rebook_cycle_days} is null or ${t.rebook_cycle_days} between 7 and 180`,
    ),
    check('services_duration_check', sql`${t.duration_minutes} between 15 and 240 and ${t.duration_minutes} % 5 = 0`),
    index('services_salon_idx').on(t.salon_id, t.is_active),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    name: text('name').notNull().default(''),
    furigana: text('furigana').notNull().default(''),
    /** Not unique: walk-ins may have none, families may share one. */
    email: text('email').notNull().default(''),
    phone_number: text('phone_number').notNull().default(''),
    notes: text('notes').notNull().default(''),
    line_user_id: text('line_user_id'),
    line_display_name: text('line_display_name').notNull().default(''),
    line_picture_url: text('line_picture_url').notNull().default(''),
    /** The staff member who looks after this customer; scopes what ordinary staff see. */
    assigned_staff_id: integer('assigned_staff_id').references(() => staffUsers.id),
    /** False: no 再来店のご案内 (the customer asked staff, or followed the link in one). */
    rebook_prompts_enabled: boolean('rebook_prompts_enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('customers_line_user_id_key').on(t.salon_id, t.line_user_id),
    index('customers_email_idx').on(t.salon_id, sql`lower(${t.email})`),
    index('customers_phone_idx').on(t.salon_id, t.phone_number),
    index('customers_assigned_staff_idx').on(t.assigned_staff_id),
    index('customers_updated_idx').on(t.salon_id, t.updated_at),
    index('customers_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('customers_phone_trgm_idx').using('gin', t.phone_number.op('gin_trgm_ops')),
  ],
);

/**
 * A customer's LINE link removed by a superuser (migration 0020): the LINE account it was, who removed it and when.
 * Rows are never changed or deleted.
 */
export const customerLineUnlinks = pgTable(
  'customer_line_unlinks',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    line_user_id: text('line_user_id').notNull(),
    line_display_name: text('line_display_name').notNull().default(''),
    unlinked_by_staff_id: integer('unlinked_by_staff_id')
      .notNull()
      .references(() => staffUsers.id),
    unlinked_at: timestamp('unlinked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_line_unlinks_customer_idx').on(t.customer_id)],
);

/**
 * Every suffix of each customer's folded name and folded furigana (customer_search_fold), so that "contains q" is
 * "a suffix starts with q", a range of the btree. Written by the database's trigger on customers (migration 0019
 * says why); the customer search reads it (server/features/customers/customers.repository.ts). The suffix column
 * has the C collation, so that the range is code-point order whatever the database's locale.
 */
export const customerNameSuffixes = pgTable(
  'customer_name_suffixes',
  {
    salon_id: integer('salon_id').notNull(),
    suffix: text('suffix').notNull(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('customer_name_suffixes_prefix_idx').on(t.salon_id, t.suffix),
    index('customer_name_suffixes_customer_idx').on(t.customer_id),
  ],
);

/**
 * オプション: an add-on with its own price and time (ジェルオフ +30分 ¥1,100). It belongs to the salon; the menus
 * that allow it are its rows in service_option_links (migration 0026), so one ジェルオフ serves every gel menu.
 */
export const serviceOptions = pgTable(
  'service_options',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    duration_minutes: integer('duration_minutes').notNull(),
    /** False once deleted: reservations keep their snapshot, booking no longer offers it. */
    is_active: boolean('is_active').notNull().default(true),
    sort_order: integer('sort_order').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check('service_options_price_check', sql`${t.price} >= 0`),
    check(
      'service_options_duration_check',
      sql`${t.duration_minutes} between 0 and 180 and ${t.duration_minutes} % 5 = 0`,
    ),
    index('service_options_salon_idx').on(t.salon_id, t.is_active),
  ],
);

/** Which menus allow which options: booking offers an option with a service only through a row here. */
export const serviceOptionLinks = pgTable(
  'service_option_links',
  {
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    option_id: integer('option_id')
      .notNull()
      .references(() => serviceOptions.id),
  },
  (t) => [
    primaryKey({ columns: [t.service_id, t.option_id] }),
    index('service_option_links_option_idx').on(t.option_id),
  ],
);

/**
 * A staff member's weekly working hours (one row per working weekday, 0 = Sunday), on the 30-minute cells of the
 * opening-slot calendar. A date with a schedule exception, a salon closed weekday or a salon holiday ignores it.
 */
export const shiftTemplates = pgTable(
  'shift_templates',
  {
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    weekday: integer('weekday').notNull(),
    start_time: time('start_time').notNull(),
    end_time: time('end_time').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.staff_id, t.weekday] }),
    check('shift_templates_weekday_check', sql`${t.weekday} between 0 and 6`),
    check('shift_templates_order_check', sql`${t.start_time} < ${t.end_time}`),
    check(
      'shift_templates_grid_check',
      sql`extract(minute from ${t.start_time}) in (0, 30) and extract(minute from ${t.end_time}) in (0, 30)`,
    ),
  ],
);

/** One-off salon closed dates (臨時休業, 年末年始): no staff member's template applies on them. */
export const salonHolidays = pgTable(
  'salon_holidays',
  {
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    holiday_date: date('holiday_date').notNull(),
    note: text('note').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.salon_id, t.holiday_date] })],
);

/**
 * A day whose opening slots were set by hand: the rows of opening_slots for that staff member and date (none = a
 * day off) replace the weekly template, the closed weekday and the holiday.
 */
export const scheduleExceptions = pgTable(
  'schedule_exceptions',
  {
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    exception_date: date('exception_date').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.staff_id, t.exception_date] }),
    index('schedule_exceptions_date_idx').on(t.salon_id, t.exception_date),
  ],
);

/** A staff member is open for the 30-minute slot starting at `start_time` on `slot_date` (salon local). */
export const openingSlots = pgTable(
  'opening_slots',
  {
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    slot_date: date('slot_date').notNull(),
    start_time: time('start_time').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.staff_id, t.slot_date, t.start_time] }),
    check(
      'opening_slots_grid_check',
      sql`extract(minute from ${t.start_time}) in (0, 30) and extract(second from ${t.start_time}) = 0`,
    ),
    index('opening_slots_date_idx').on(t.salon_id, t.slot_date),
  ],
);

export const reservations = pgTable(
  'reservations',
  {
    id: serial('id').primaryKey(),
    /** The URL key: random, so that integer ids never reveal or reach anything. */
    reservation_number: uuid('reservation_number').notNull().defaultRandom(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    start_time: timestamp('start_time', { withTimezone: true }).notNull(),
    end_time: timestamp('end_time', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'cancelled', 'completed', 'no_show'] }).notNull(),
    // Snapshot at booking time: later edits of the service or the customer do not rewrite history.
    service_name: text('service_name').notNull(),
    /** The total: service, options and 指名料. */
    price: integer('price').notNull(),
    /** The total time the customer is served: the service and its options (end_time - start_time). */
    duration_minutes: integer('duration_minutes').notNull(),
    /** The options chosen, as booked: [{ id, name, price, duration_minutes }]. */
    options: jsonb('options').$type<ReservationOptionSnapshot[]>().notNull().default([]),
    /** The customer named this staff member (指名); the 指名料 is part of `price`. */
    is_nominated: boolean('is_nominated').notNull().default(false),
    nomination_fee: integer('nomination_fee').notNull().default(0),
    /**
     * The end of the time this booking holds of its staff member: end_time rounded up as the salon chooses, plus the
     * salon's buffer. The exclusion constraint (migration 0009) is on [start_time, occupied_until). Left out of an
     * insert, a trigger of migration 0009 sets it to end_time.
     */
    occupied_until: timestamp('occupied_until', { withTimezone: true })
      .notNull()
      .$defaultFn(() => sql`null`),
    customer_name: text('customer_name').notNull(),
    customer_furigana: text('customer_furigana').notNull().default(''),
    customer_email: text('customer_email').notNull().default(''),
    customer_phone: text('customer_phone').notNull().default(''),
    created_by: text('created_by', { enum: ['customer', 'staff'] }).notNull(),
    created_by_staff_id: integer('created_by_staff_id').references(() => staffUsers.id),
    reminder_sent_at: timestamp('reminder_sent_at', { withTimezone: true }),
    /** When this visit's 再来店のご案内 was queued (server/outbox/rebooking.ts): at most one per visit. */
    rebook_prompted_at: timestamp('rebook_prompted_at', { withTimezone: true }),
    /** When it was cancelled, and whether that was a 直前キャンセル under the salon's hours then (migration 0015). */
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancelled_late: boolean('cancelled_late').notNull().default(false),
    /** An online booking left pending because of the customer's no-shows and late cancels (server/db/incidents.ts). */
    needs_approval: boolean('needs_approval').notNull().default(false),
    /**
     * The Idempotency-Key of the request that created it, with its caller (`customer:12 <key>`): a repeat whose
     * stored answer was lost (the process died between the commit and recording the answer) finds this row
     * instead of booking again.
     */
    idempotency_key: text('idempotency_key'),
    /**
     * The short code a customer reads out on the phone (8 characters without 0/O/1/I/L), drawn by the database
     * function of migration 0008 on every insert; unique per salon.
     */
    reservation_code: text('reservation_code')
      .notNull()
      .default(sql`new_reservation_code()`),
    /**
     * The secret of the reservation's link in the customer's e-mails (/reservations/{number}?t=…): it opens this one
     * reservation read-only without signing in, until 30 days after the start. Never sent by the API.
     */
    link_secret: text('link_secret')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('reservations_number_key').on(t.reservation_number),
    uniqueIndex('reservations_salon_code_key').on(t.salon_id, t.reservation_code),
    // new_reservation_code() checks a drawn code by itself (migration 0018).
    index('reservations_code_idx').on(t.reservation_code),
    uniqueIndex('reservations_idempotency_key').on(t.idempotency_key),
    check('reservations_status_check', sql`${t.status} in ('pending','confirmed','cancelled','completed','no_show')`),
    check('reservations_time_check', sql`${t.end_time} > ${t.start_time}`),
    check('reservations_occupied_check', sql`${t.occupied_until} >= ${t.end_time}`),
    index('reservations_salon_start_idx').on(t.salon_id, t.start_time),
    index('reservations_staff_start_idx').on(t.staff_id, t.start_time),
    index('reservations_customer_start_idx').on(t.customer_id, t.start_time),
    index('reservations_updated_idx').on(t.salon_id, t.updated_at),
    index('reservations_rebook_due_idx')
      .on(t.salon_id, t.start_time)
      .where(sql`${t.status} = 'completed' and ${t.rebook_prompted_at} is null`),
    // The per-customer counts of server/db/incidents.ts read only these rows.
    index('reservations_customer_incidents_idx')
      .on(t.customer_id)
      .where(sql`${t.status} = 'no_show' or ${t.cancelled_late}`),
  ],
);

/** 商品: what the register sells besides the menu. Retired (is_active false), never deleted: receipts keep their lines. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    name: text('name').notNull(),
    /** Tax-inclusive yen. */
    price: integer('price').notNull(),
    /** 10, or 8 for the reduced rate (food and drink). */
    tax_rate: integer('tax_rate').notNull(),
    is_active: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    check('products_price_check', sql`${t.price} >= 0`),
    check('products_tax_rate_check', sql`${t.tax_rate} in (8, 10)`),
    index('products_salon_idx').on(t.salon_id, t.is_active),
  ],
);

/**
 * A checkout (会計): one receipt, never changed or deleted (a trigger of migration 0022 refuses it); a void or a
 * refund is a checkout_corrections row. At most one per reservation (the unique index is the guard of a double
 * checkout).
 */
export const checkouts = pgTable(
  'checkouts',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    /** Unique per salon: the server's `yyyyMMdd-nnnnnn`, or a device's own `DEVICE-yyyyMMdd-n` (offline). */
    receipt_number: text('receipt_number').notNull(),
    /** The salon-local day whose takings and closing it belongs to. */
    business_date: date('business_date', { mode: 'string' }).notNull(),
    checked_out_at: timestamp('checked_out_at', { withTimezone: true }).notNull(),
    reservation_id: integer('reservation_id').references(() => reservations.id),
    customer_id: integer('customer_id').references(() => customers.id),
    /** The customer's name at the checkout (a receipt made out to them prints it). */
    customer_name: text('customer_name').notNull().default(''),
    /** 担当: whose takings these are. */
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    /** Who rang it up. */
    created_by_staff_id: integer('created_by_staff_id')
      .notNull()
      .references(() => staffUsers.id),
    lines: jsonb('lines').$type<ReceiptLine[]>().notNull(),
    discounts: jsonb('discounts').$type<AppliedDiscount[]>().notNull().default([]),
    subtotal: integer('subtotal').notNull(),
    discount_total: integer('discount_total').notNull(),
    total: integer('total').notNull(),
    tax_by_rate: jsonb('tax_by_rate').$type<TaxByRate[]>().notNull(),
    /** Non-cash payments as given and one cash payment of the cash due: they add up to the total. */
    payments: jsonb('payments').$type<Payment[]>().notNull(),
    cash_received: integer('cash_received').notNull(),
    change: integer('change').notNull(),
    /** The salon's rounding when it was rung up (the receipt is reprinted as it was). */
    tax_rounding: text('tax_rounding').$type<TaxRounding>().notNull(),
    /** The request's Idempotency-Key with its caller, as reservations keep it. */
    idempotency_key: text('idempotency_key'),
  },
  (t) => [
    check(
      'checkouts_money_check',
      sql`${t.total} >= 0 and ${t.discount_total} >= 0 and ${t.total} = ${t.subtotal} - ${t.discount_total} and ${t.change} >= 0 and ${t.cash_received} >= ${t.change}`,
    ),
    uniqueIndex('checkouts_receipt_number_key').on(t.salon_id, t.receipt_number),
    uniqueIndex('checkouts_reservation_key')
      .on(t.reservation_id)
      .where(sql`${t.reservation_id} is not null`),
    uniqueIndex('checkouts_idempotency_key').on(t.idempotency_key),
    index('checkouts_salon_date_idx').on(t.salon_id, t.business_date),
  ],
);

/** A void (the whole checkout, on its own day) or a refund (some or all lines, on the day it is given). */
export const checkoutCorrections = pgTable(
  'checkout_corrections',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    checkout_id: integer('checkout_id')
      .notNull()
      .references(() => checkouts.id),
    kind: text('kind', { enum: ['void', 'refund'] }).notNull(),
    business_date: date('business_date', { mode: 'string' }).notNull(),
    /** Yen given back (positive). */
    amount: integer('amount').notNull(),
    tax_by_rate: jsonb('tax_by_rate').$type<TaxByRate[]>().notNull(),
    /** The lines given back (a void: every line). */
    lines: jsonb('lines').$type<RefundedLine[]>().notNull().default([]),
    /** How the money went back. */
    method: text('method').$type<PaymentMethod>().notNull(),
    /** The part of `amount` handed back in cash (the closing's expected cash subtracts it). */
    cash_refunded: integer('cash_refunded').notNull(),
    reason: text('reason').notNull(),
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('checkout_corrections_kind_check', sql`${t.kind} in ('void','refund')`),
    check('checkout_corrections_amount_check', sql`${t.amount} >= 0 and ${t.cash_refunded} between 0 and ${t.amount}`),
    index('checkout_corrections_checkout_idx').on(t.checkout_id),
    index('checkout_corrections_salon_date_idx').on(t.salon_id, t.business_date),
    uniqueIndex('checkout_corrections_one_void_key')
      .on(t.checkout_id)
      .where(sql`${t.kind} = 'void'`),
  ],
);

/** レジ締め: one per salon-local day; from it on, the day takes no checkout, void or refund. */
export const registerClosings = pgTable(
  'register_closings',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    business_date: date('business_date', { mode: 'string' }).notNull(),
    opening_float: integer('opening_float').notNull(),
    cash_received: integer('cash_received').notNull(),
    change_given: integer('change_given').notNull(),
    cash_refunded: integer('cash_refunded').notNull(),
    expected_cash: integer('expected_cash').notNull(),
    counted_cash: integer('counted_cash').notNull(),
    totals_by_method: jsonb('totals_by_method').$type<Record<PaymentMethod, number>>().notNull(),
    memo: text('memo').notNull().default(''),
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('register_closings_counted_check', sql`${t.counted_cash} >= 0`),
    uniqueIndex('register_closings_date_key').on(t.salon_id, t.business_date),
  ],
);

/** A reservation's moves (POST /api/reservations/{n}/reschedule/): the number stays, the history is kept here. */
export const reservationReschedules = pgTable(
  'reservation_reschedules',
  {
    id: serial('id').primaryKey(),
    reservation_id: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    old_start_time: timestamp('old_start_time', { withTimezone: true }).notNull(),
    new_start_time: timestamp('new_start_time', { withTimezone: true }).notNull(),
    old_staff_id: integer('old_staff_id')
      .notNull()
      .references(() => staffUsers.id),
    new_staff_id: integer('new_staff_id')
      .notNull()
      .references(() => staffUsers.id),
    by: text('by', { enum: ['customer', 'staff'] }).notNull(),
    staff_id: integer('staff_id').references(() => staffUsers.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reservation_reschedules_reservation_idx').on(t.reservation_id)],
);

/** The カルテ note of a visit (server/features/karte): one per reservation, written by staff. */
export const visitNotes = pgTable('visit_notes', {
  reservation_id: integer('reservation_id')
    .primaryKey()
    .references(() => reservations.id),
  salon_id: integer('salon_id')
    .notNull()
    .references(() => salons.id),
  note: text('note').notNull().default(''),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updated_by_staff_id: integer('updated_by_staff_id').references(() => staffUsers.id),
});

/**
 * Photos of a visit (kind 'visit', taken by staff) and a customer's reference designs (kind 'reference'). The files
 * live in the private karte folder (server/integrations/storage/karte-photos.ts), never under /media; the orphan
 * sweep reads `file_name` to keep them.
 */
export const visitPhotos = pgTable(
  'visit_photos',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    reservation_id: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind', { enum: ['visit', 'reference'] }).notNull(),
    /** The stored image's name in the karte folder; its preview is `<base>-preview.jpg` beside it. */
    file_name: text('file_name').notNull(),
    uploaded_by_staff_id: integer('uploaded_by_staff_id').references(() => staffUsers.id),
    /** The upload's Idempotency-Key with its caller (`staff:3 <key>`): a replayed upload finds this row. */
    idempotency_key: text('idempotency_key'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('visit_photos_kind_check', sql`${t.kind} in ('visit','reference')`),
    uniqueIndex('visit_photos_idempotency_key').on(t.idempotency_key),
    index('visit_photos_reservation_idx').on(t.reservation_id),
    index('visit_photos_customer_idx').on(t.customer_id),
  ],
);

/**
 * キャンセル待ち (migration 0014): a customer waiting for a start on one day for one service (with options, a named
 * staff member or anyone, and an optional salon-local window of starts). The outbox worker offers freed starts
 * (server/outbox/waitlist-offers.ts); the booking itself is an ordinary one. One waiting entry per customer, day,
 * service and staff choice (a partial unique index on coalesce(staff_id, 0), written in the migration).
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    option_ids: integer('option_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** 指名: only this staff member's starts; null = anyone. */
    staff_id: integer('staff_id').references(() => staffUsers.id),
    date: date('date').notNull(),
    /** Starts from time_from up to and including time_to (salon-local); null = no bound. */
    time_from: time('time_from'),
    time_to: time('time_to'),
    status: text('status', { enum: ['waiting', 'booked', 'withdrawn', 'expired'] })
      .notNull()
      .default('waiting'),
    ...timestamps,
  },
  (t) => [
    check('waitlist_entries_status_check', sql`${t.status} in ('waiting','booked','withdrawn','expired')`),
    check(
      'waitlist_entries_window_check',
      sql`${t.time_from} is null or ${t.time_to} is null or ${t.time_from} < ${t.time_to}`,
    ),
    uniqueIndex('waitlist_entries_waiting_key')
      .on(t.customer_id, t.service_id, t.date, sql`coalesce(${t.staff_id}, 0)`)
      .where(sql`${t.status} = 'waiting'`),
    index('waitlist_entries_date_idx')
      .on(t.salon_id, t.date)
      .where(sql`${t.status} = 'waiting'`),
    index('waitlist_entries_salon_date_idx').on(t.salon_id, t.date, t.created_at),
    index('waitlist_entries_customer_idx').on(t.customer_id, t.status),
  ],
);

/** A start offered to a waiting entry: unique per entry and start, so the same start is never offered twice. */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: serial('id').primaryKey(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => waitlistEntries.id),
    start_time: timestamp('start_time', { withTimezone: true }).notNull(),
    /** Who was free at that start when offered (the booking may still go to anyone free then). */
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    offered_at: timestamp('offered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('waitlist_offers_entry_start_key').on(t.entry_id, t.start_time)],
);

/** A bulk send, stored once with its recipients (the per-customer rows of line_messages point at it). */
export const broadcasts = pgTable('broadcasts', {
  id: serial('id').primaryKey(),
  salon_id: integer('salon_id')
    .notNull()
    .references(() => salons.id),
  staff_id: integer('staff_id').references(() => staffUsers.id),
  message: text('message').notNull().default(''),
  image_url: text('image_url').notNull().default(''),
  recipient_count: integer('recipient_count').notNull().default(0),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who a broadcast reached: the send is stored once, with one row per recipient (not one message each). */
export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    broadcast_id: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (t) => [
    primaryKey({ columns: [t.broadcast_id, t.customer_id] }),
    index('broadcast_recipients_customer_idx').on(t.customer_id),
  ],
);

export const lineMessages = pgTable(
  'line_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    sender_type: text('sender_type', { enum: ['admin', 'customer'] }).notNull(),
    staff_id: integer('staff_id').references(() => staffUsers.id),
    broadcast_id: integer('broadcast_id').references(() => broadcasts.id),
    message: text('message').notNull().default(''),
    image_url: text('image_url').notNull().default(''),
    /** LINE's message id for incoming messages. */
    line_message_id: text('line_message_id'),
    sent_at: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('line_messages_customer_idx').on(t.customer_id, t.sent_at),
    index('line_messages_salon_sent_idx').on(t.salon_id, t.sent_at),
  ],
);

/** One-time tokens that link a LINE account to a staff account (24 h) or a customer record (7 days). */
export const linkTokens = pgTable(
  'link_tokens',
  {
    /** SHA-256 of the token: a database leak does not hand out usable links. */
    token_hash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['staff', 'customer'] }).notNull(),
    staff_id: integer('staff_id').references(() => staffUsers.id),
    customer_id: integer('customer_id').references(() => customers.id),
    created_by_staff_id: integer('created_by_staff_id').references(() => staffUsers.id),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'link_tokens_target_check',
      sql`(${t.kind} = 'staff' and ${t.staff_id} is not null) or (${t.kind} = 'customer' and ${t.customer_id} is not null)`,
    ),
  ],
);

/**
 * Each staff member's secret calendar feed (GET /api/calendar/{token}.ics, migration 0010). The URL's token is an
 * HMAC of `feed_key` under the server's secret, so the database alone never yields a working URL; `token_hash`
 * (SHA-256 of the token) finds the row. Replacing the key (URLを再発行) ends the old URL at once.
 */
export const staffCalendarFeeds = pgTable(
  'staff_calendar_feeds',
  {
    staff_id: integer('staff_id')
      .primaryKey()
      .references(() => staffUsers.id),
    feed_key: text('feed_key').notNull(),
    token_hash: text('token_hash').notNull(),
    /** The staff member's token_version when the URL was made (migration 0020): another version ends the feed. */
    token_version: integer('token_version').notNull().default(0),
    /** The staff member chose to show customers' phone numbers in this URL's feed. */
    include_phone: boolean('include_phone').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('staff_calendar_feeds_token_hash_key').on(t.token_hash)],
);

/**
 * A staff member's browser that takes Web Push (migration 0016): the push service's endpoint and the browser's
 * keys for encrypting to it (server/integrations/web-push). Staff notices go to every subscription of the staff
 * member instead of a LINE push; a push service that answers 404/410 has dropped the subscription and the row goes.
 */
export const staffPushSubscriptions = pgTable(
  'staff_push_subscriptions',
  {
    id: serial('id').primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    staff_id: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's ECDH P-256 public key and auth secret, base64url as the browser gives them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    user_agent: text('user_agent').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    last_success_at: timestamp('last_success_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_push_subscriptions_endpoint_key').on(t.endpoint),
    index('staff_push_subscriptions_staff_idx').on(t.staff_id),
  ],
);

/**
 * Refresh tokens, one row per issued token. Rotation marks the old row used; presenting a used one again
 * (after a short grace window) means it was stolen or replayed, and the whole family (one login) is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    family_id: uuid('family_id').notNull(),
    audience: text('audience', { enum: ['staff', 'customer'] }).notNull(),
    subject_id: integer('subject_id').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    /**
     * The successor issued when this token was used. For a short grace window a repeat of this token gets that
     * same successor again (two tabs refreshing at once), see server/features/auth/auth.service.ts.
     */
    replaced_by: uuid('replaced_by'),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.family_id),
    // Every session of one person, revoked at once after a password change or a deactivation.
    index('refresh_tokens_subject_idx').on(t.audience, t.subject_id),
  ],
);

/** Idempotency-Key records (docs/architecture.md#offline-design): key, body hash and the stored response, per caller. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    body_hash: text('body_hash').notNull(),
    state: text('state', { enum: ['in_flight', 'done'] }).notNull(),
    response_status: integer('response_status'),
    response_body: jsonb('response_body'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.key] }), index('idempotency_keys_created_idx').on(t.created_at)],
);

/**
 * Abuse limits shared by every instance (server/plugins/login-limits.ts, booking-limits.ts): one counter per key,
 * `<scope>:<sha-256 of the subject>` (an address, a login ID, a customer), so no login ID or address is stored as
 * typed. A row past `expires_at` no longer limits anything and is deleted now and then.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    /** The last counted attempt: where a growing delay is measured from. */
    last_at: timestamp('last_at', { withTimezone: true }).notNull(),
    /** The end of the counting window: from then on the count starts again at zero. */
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_expires_idx').on(t.expires_at)],
);

/**
 * The scratch row the health check overwrites (server/features/health/health.routes.ts): only a write shows that the
 * database can still take one. Not a salon's data, so no `salon_id`.
 */
export const healthProbe = pgTable('health_probe', {
  instance: text('instance').primaryKey(),
  checked_at: timestamp('checked_at', { withTimezone: true }).notNull(),
});

/**
 * Every outgoing e-mail and LINE message, written in the same transaction as the change that caused it.
 * The worker claims due rows, sends them with the row's retry key, and marks them sent or failed.
 */
export const notificationsOutbox = pgTable(
  'notifications_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    /**
     * webpush: a staff browser; the recipient is the staff_push_subscriptions id. event: sent to nobody, a
     * reservation event the worker expands into messages (server/outbox/reservation-events.ts, migration 0027).
     */
    channel: text('channel', { enum: ['email', 'line', 'webpush', 'event'] }).notNull(),
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    reservation_id: integer('reservation_id').references(() => reservations.id),
    payload: jsonb('payload').notNull(),
    /** Sent as LINE's X-Line-Retry-Key on every attempt, so LINE drops duplicates. */
    retry_key: uuid('retry_key').notNull().defaultRandom(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_error: text('last_error'),
    /**
     * The salon-local month (`YYYY-MM`) whose LINE budget this row's pushes were counted in (line_push_counts);
     * null: not counted (e-mail, or not attempted yet). Retries of a counted row are not counted again.
     */
    line_push_month: text('line_push_month'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_outbox_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('notifications_outbox_reservation_idx').on(t.reservation_id),
  ],
);

/**
 * LINE pushes counted per salon-local month against salons.line_monthly_push_limit (server/outbox/line-budget.ts).
 * A multicast to N users counts N, as LINE counts it; replies are free and not counted.
 */
export const linePushCounts = pgTable(
  'line_push_counts',
  {
    salon_id: integer('salon_id')
      .notNull()
      .references(() => salons.id),
    /** `YYYY-MM` in the salon's time zone. */
    month: text('month').notNull(),
    pushes: integer('pushes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.salon_id, t.month] })],
);

/** LINE webhook events already processed: each event is stored once, whatever LINE redelivers. */
export const webhookEvents = pgTable('webhook_events', {
  event_id: text('event_id').primaryKey(),
  type: text('type').notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Test LINE users of the built-in emulator (dev mode only). */
export const devLineUsers = pgTable('dev_line_users', {
  line_user_id: text('line_user_id').primaryKey(),
  name: text('name').notNull(),
  display_name: text('display_name').notNull(),
  email: text('email').notNull().default(''),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The dev mailbox (docs/architecture.md#operating-contract): every e-mail sent while no SMTP_URL is configured, shown at /dev/mail. */
export const devMail = pgTable('dev_mail', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The LINE emulator's inbox (docs/architecture.md#operating-contract): every push made while no Messaging API token is configured,
 * shown at /dev/line/inbox. The retry key is unique, so a repeated push is dropped as LINE drops it.
 */
export const devLineInbox = pgTable(
  'dev_line_inbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    messages: jsonb('messages').notNull(),
    retry_key: uuid('retry_key').notNull(),
    /** Set for a reply (LINE's Reply API, answering a customer's message): the event's reply token. */
    reply_token: text('reply_token'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dev_line_inbox_retry_key_key').on(t.retry_key)],
);
