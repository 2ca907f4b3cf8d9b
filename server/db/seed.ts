import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { addDaysToDate, localDateOf, localDateTimeToInstant } from '../../src/shared/time';
import { generatePassword, hashPassword, verifyPassword } from '../features/auth/passwords';
import type { Database } from './client';
import { bookingLength } from '../../src/shared/slots';
import { weekdayOf } from '../scheduling/working-time';
import {
  customers,
  refreshTokens,
  reservations,
  salons,
  serviceOptionLinks,
  serviceOptions,
  services,
  shiftTemplates,
  staffUsers,
} from './schema';

const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';
const DEMO_ACCOUNTS_FILE = 'demo-accounts.txt';

interface InitialDataOptions {
  db: Database;
  dataDir: string;
  timeZone: string;
  adminUsername: string;
  adminPassword?: string;
  demoData: boolean;
  now?: Date;
  /** Where human-facing start-up notes go (the admin password location). */
  log?: (line: string) => void;
}

/**
 * Makes sure the salon and its superuser exist, and on the very first start fills in demo data.
 * Returns the salon id (docs/architecture.md: the first salon row is the salon).
 */
export async function ensureInitialData(options: InitialDataOptions): Promise<{ salonId: number }> {
  const { db, log = () => {} } = options;
  let [salon] = await db.select().from(salons).orderBy(asc(salons.id)).limit(1);
  const firstStart = !salon;
  if (!salon) [salon] = await db.insert(salons).values({ name: 'ネイルサロン Lumière' }).returning();
  const salonId = salon!.id;

  await ensureSuperuser(options, salonId, log);
  if (firstStart && options.demoData) await seedDemoData(options, salonId, log);
  return { salonId };
}

async function ensureSuperuser(options: InitialDataOptions, salonId: number, log: (line: string) => void) {
  const { db, adminUsername, adminPassword } = options;
  const [existing] = await db
    .select()
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.username})`, adminUsername.toLowerCase()));
  if (existing) {
    // ADMIN_PASSWORD set: it is the password from now on, at every start.
    if (adminPassword) {
      // A different password than before is a password change: the sessions signed in with the old one end, as
      // they do when the password is changed in the app (their tokens carry the old token_version).
      const changed = !existing.password_hash || !(await verifyPassword(adminPassword, existing.password_hash));
      await db
        .update(staffUsers)
        .set({
          password_hash: await hashPassword(adminPassword),
          is_superuser: true,
          role: 'owner',
          is_active: true,
          updated_at: new Date(),
          ...(changed ? { token_version: existing.token_version + 1 } : {}),
        })
        .where(eq(staffUsers.id, existing.id));
      if (changed) {
        await db
          .update(refreshTokens)
          .set({ revoked_at: new Date() })
          .where(
            and(
              eq(refreshTokens.audience, 'staff'),
              eq(refreshTokens.subject_id, existing.id),
              isNull(refreshTokens.revoked_at),
            ),
          );
      }
    }
    return;
  }
  const password = adminPassword ?? generatePassword();
  await db.insert(staffUsers).values({
    salon_id: salonId,
    username: adminUsername,
    full_name: '管理者',
    password_hash: await hashPassword(password),
    is_superuser: true,
    role: 'owner',
  });
  if (!adminPassword) {
    const file = path.join(options.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    log(`Superuser "${adminUsername}" created. Initial password: ${password}`);
    log(`The password is also in ${file} (readable by this user only). Set ADMIN_PASSWORD to choose your own.`);
  }
}

/** Each service names the options it allows by key (see DEMO_OPTIONS): one row per option, shared. */
const DEMO_SERVICES = [
  { name: 'ワンカラージェル', price: 5500, duration_minutes: 60, options: ['off', 'art', 'length'] },
  { name: 'グラデーションジェル', price: 6600, duration_minutes: 90, options: ['off', 'paragel', 'art', 'length'] },
  { name: 'フレンチジェル', price: 7150, duration_minutes: 90, options: ['off', 'paragel', 'length'] },
  { name: 'アートコース', price: 8800, duration_minutes: 120, options: ['off', 'paragel', 'length'] },
  { name: 'ジェルオフ', price: 2200, duration_minutes: 30, options: [] },
  { name: 'ハンドケア', price: 4400, duration_minutes: 60, options: [] },
] as const;

const DEMO_OPTIONS = {
  off: { name: 'ジェルオフ', price: 1100, duration_minutes: 30 },
  paragel: { name: 'パラジェル', price: 1100, duration_minutes: 15 },
  art: { name: 'アート1本', price: 550, duration_minutes: 10 },
  length: { name: '長さだし1本', price: 550, duration_minutes: 15 },
} as const;

/** The salon is closed on Mondays (定休日); each staff member has a weekly shift (0 = Sunday). */
const DEMO_CLOSED_WEEKDAYS = [1];

const DEMO_STAFF = [
  {
    username: 'sato',
    full_name: '佐藤 美咲',
    email: 'sato@example.com',
    profile: 'ワンカラーとニュアンスネイルが得意です。持ちの良さにこだわっています。',
    nomination_fee: 550,
    weekdays: [2, 3, 4, 5, 6],
    shift: { start: '10:00', end: '19:00' },
  },
  {
    username: 'suzuki',
    full_name: '鈴木 彩',
    email: 'suzuki@example.com',
    profile: 'ネイリスト歴10年。手描きアートはお任せください。',
    nomination_fee: 1100,
    weekdays: [3, 4, 5, 6, 0],
    shift: { start: '11:00', end: '20:00' },
  },
];

const DEMO_CUSTOMERS = [
  { name: '山田 花子', furigana: 'ヤマダ ハナコ', email: 'hanako@example.com', phone_number: '09012345678' },
  { name: '田中 由美', furigana: 'タナカ ユミ', email: 'yumi@example.com', phone_number: '08023456789' },
  { name: '高橋 真央', furigana: 'タカハシ マオ', email: 'mao@example.com', phone_number: '' },
  { name: '伊藤 さくら', furigana: 'イトウ サクラ', email: '', phone_number: '07034567890' },
];

async function seedDemoData(options: InitialDataOptions, salonId: number, log: (line: string) => void) {
  const { db, timeZone } = options;
  const today = localDateOf(options.now ?? new Date(), timeZone);
  const [salon] = await db
    .update(salons)
    .set({ closed_weekdays: DEMO_CLOSED_WEEKDAYS })
    .where(eq(salons.id, salonId))
    .returning();
  // The superuser is the owner's login, not a nail artist: customers cannot name (指名) it.
  await db
    .update(staffUsers)
    .set({ is_bookable: false })
    .where(and(eq(staffUsers.salon_id, salonId), eq(staffUsers.is_superuser, true)));

  const serviceRows = await db
    .insert(services)
    .values(
      DEMO_SERVICES.map(({ options: _options, ...service }, index) => ({
        ...service,
        salon_id: salonId,
        sort_order: index,
      })),
    )
    .returning();
  // One row per option, shared by every menu that offers it (one ジェルオフ, one price), in DEMO_OPTIONS order.
  const optionKeys = Object.keys(DEMO_OPTIONS) as Array<keyof typeof DEMO_OPTIONS>;
  const optionRows = await db
    .insert(serviceOptions)
    .values(optionKeys.map((key, order) => ({ ...DEMO_OPTIONS[key], salon_id: salonId, sort_order: order })))
    .returning();
  const optionIdOf = (key: keyof typeof DEMO_OPTIONS) => optionRows[optionKeys.indexOf(key)]!.id;
  await db
    .insert(serviceOptionLinks)
    .values(
      DEMO_SERVICES.flatMap((service, index) =>
        service.options.map((key) => ({ service_id: serviceRows[index]!.id, option_id: optionIdOf(key) })),
      ),
    );

  const credentials: string[] = [];
  const staffRows: Array<typeof staffUsers.$inferSelect & { weekdays: readonly number[] }> = [];
  for (const staff of DEMO_STAFF) {
    const password = generatePassword();
    credentials.push(`${staff.username} ${password}`);
    const [row] = await db
      .insert(staffUsers)
      .values({
        salon_id: salonId,
        username: staff.username,
        full_name: staff.full_name,
        email: staff.email,
        profile: staff.profile,
        nomination_fee: staff.nomination_fee,
        password_hash: await hashPassword(password),
      })
      .returning();
    staffRows.push({ ...row!, weekdays: staff.weekdays });
    await db.insert(shiftTemplates).values(
      staff.weekdays.map((weekday) => ({
        staff_id: row!.id,
        salon_id: salonId,
        weekday,
        start_time: staff.shift.start,
        end_time: staff.shift.end,
      })),
    );
  }
  fs.writeFileSync(path.join(options.dataDir, DEMO_ACCOUNTS_FILE), `${credentials.join('\n')}\n`, { mode: 0o600 });
  log(`Demo staff accounts (login ID and password) are in ${path.join(options.dataDir, DEMO_ACCOUNTS_FILE)}.`);

  const customerRows = await db
    .insert(customers)
    .values(
      DEMO_CUSTOMERS.map((customer, index) => ({
        ...customer,
        salon_id: salonId,
        assigned_staff_id: staffRows[index % staffRows.length]!.id,
      })),
    )
    .returning();

  // A few upcoming bookings so that the front desk has something to show, each on a working day of its staff
  // member: the first with an option, the second nominated (指名), priced and timed as a booking would be.
  const lastDateOf = new Map<number, string>();
  const bookings = customerRows.slice(0, 3).map((customer, index) => {
    const staff = staffRows[index % staffRows.length]!;
    // A later working day than this staff member's previous demo booking, so that two never overlap.
    const after = lastDateOf.get(staff.id);
    let date = addDaysToDate(today, index + 1);
    if (after !== undefined && date <= after) date = addDaysToDate(after, 1);
    while (!staff.weekdays.includes(weekdayOf(date)) || DEMO_CLOSED_WEEKDAYS.includes(weekdayOf(date))) {
      date = addDaysToDate(date, 1);
    }
    lastDateOf.set(staff.id, date);
    const service = serviceRows[index + 1]!;
    const firstOption = DEMO_SERVICES[index + 1]!.options[0];
    const chosen =
      index === 0 && firstOption ? optionRows.filter((option) => option.id === optionIdOf(firstOption)) : [];
    const nominationFee = index === 1 ? staff.nomination_fee : 0;
    const length = bookingLength({
      serviceMinutes: service.duration_minutes,
      optionMinutes: chosen.map((option) => option.duration_minutes),
      roundingMinutes: salon!.block_rounding_minutes,
      bufferMinutes: salon!.buffer_minutes,
    });
    const start = localDateTimeToInstant(`${date}T${index % 2 ? '14:00' : '11:00'}:00`, timeZone);
    return {
      salon_id: salonId,
      staff_id: staff.id,
      customer_id: customer.id,
      service_id: service.id,
      start_time: start,
      end_time: new Date(start.getTime() + length.servedMinutes * 60_000),
      occupied_until: new Date(start.getTime() + length.occupiedMinutes * 60_000),
      status: index === 0 ? ('confirmed' as const) : ('pending' as const),
      service_name: service.name,
      price: service.price + chosen.reduce((sum, option) => sum + option.price, 0) + nominationFee,
      duration_minutes: length.servedMinutes,
      options: chosen.map(({ id, name, price, duration_minutes }) => ({ id, name, price, duration_minutes })),
      is_nominated: index === 1,
      nomination_fee: nominationFee,
      customer_name: customer.name,
      customer_furigana: customer.furigana,
      customer_email: customer.email,
      customer_phone: customer.phone_number,
      created_by: 'customer' as const,
    };
  });
  await db.insert(reservations).values(bookings);
}
