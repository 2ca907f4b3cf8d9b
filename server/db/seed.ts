import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { addDaysToDate, localDateOf, localDateTimeToInstant } from '../../src/shared/time';
import { generatePassword, hashPassword, verifyPassword } from '../features/auth/passwords';
import type { Database } from './client';
import { customers, openingSlots, refreshTokens, reservations, salons, services, staffUsers } from './schema';

export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';
export const DEMO_ACCOUNTS_FILE = 'demo-accounts.txt';

export interface InitialDataOptions {
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
  });
  if (!adminPassword) {
    const file = path.join(options.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    log(`Superuser "${adminUsername}" created. Initial password: ${password}`);
    log(`The password is also in ${file} (readable by this user only). Set ADMIN_PASSWORD to choose your own.`);
  }
}

const DEMO_SERVICES = [
  { name: 'ワンカラージェル', price: 5500, duration_minutes: 60 },
  { name: 'グラデーションジェル', price: 6600, duration_minutes: 90 },
  { name: 'フレンチジェル', price: 7150, duration_minutes: 90 },
  { name: 'アートコース', price: 8800, duration_minutes: 120 },
  { name: 'ジェルオフ', price: 2200, duration_minutes: 30 },
  { name: 'ハンドケア', price: 4400, duration_minutes: 60 },
];

const DEMO_STAFF = [
  { username: 'sato', full_name: '佐藤 美咲', email: 'sato@example.com', dayOff: 2 },
  { username: 'suzuki', full_name: '鈴木 彩', email: 'suzuki@example.com', dayOff: 3 },
];

const DEMO_CUSTOMERS = [
  { name: '山田 花子', furigana: 'ヤマダ ハナコ', email: 'hanako@example.com', phone_number: '09012345678' },
  { name: '田中 由美', furigana: 'タナカ ユミ', email: 'yumi@example.com', phone_number: '08023456789' },
  { name: '高橋 真央', furigana: 'タカハシ マオ', email: 'mao@example.com', phone_number: '' },
  { name: '伊藤 さくら', furigana: 'イトウ サクラ', email: '', phone_number: '07034567890' },
];

/** Open 10:00–19:00 on the 30-minute grid. */
const DEMO_SLOT_TIMES = Array.from(
  { length: 18 },
  (_, i) => `${String(10 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
);

async function seedDemoData(options: InitialDataOptions, salonId: number, log: (line: string) => void) {
  const { db, timeZone } = options;
  const today = localDateOf(options.now ?? new Date(), timeZone);
  const serviceRows = await db
    .insert(services)
    .values(DEMO_SERVICES.map((service, index) => ({ ...service, salon_id: salonId, sort_order: index })))
    .returning();

  const credentials: string[] = [];
  const staffRows: Array<typeof staffUsers.$inferSelect & { dayOff: number }> = [];
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
        password_hash: await hashPassword(password),
      })
      .returning();
    staffRows.push({ ...row!, dayOff: staff.dayOff });
  }
  fs.writeFileSync(path.join(options.dataDir, DEMO_ACCOUNTS_FILE), `${credentials.join('\n')}\n`, { mode: 0o600 });
  log(`Demo staff accounts (login ID and password) are in ${path.join(options.dataDir, DEMO_ACCOUNTS_FILE)}.`);

  const slots = [];
  for (let offset = 0; offset < 30; offset += 1) {
    const date = addDaysToDate(today, offset);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    for (const staff of staffRows) {
      if (weekday === staff.dayOff) continue;
      for (const time of DEMO_SLOT_TIMES)
        slots.push({ staff_id: staff.id, salon_id: salonId, slot_date: date, start_time: time });
    }
  }
  await db.insert(openingSlots).values(slots);

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

  // A few upcoming bookings so that the front desk has something to show; each on an open day of its staff.
  const bookings = customerRows.slice(0, 3).map((customer, index) => {
    const staff = staffRows[index % staffRows.length]!;
    let date = addDaysToDate(today, index + 1);
    if (new Date(`${date}T00:00:00Z`).getUTCDay() === staff.dayOff) date = addDaysToDate(date, 1);
    const service = serviceRows[index + 1]!;
    const start = localDateTimeToInstant(`${date}T${index % 2 ? '14:00' : '11:00'}:00`, timeZone);
    return {
      salon_id: salonId,
      staff_id: staff.id,
      customer_id: customer.id,
      service_id: service.id,
      start_time: start,
      end_time: new Date(start.getTime() + service.duration_minutes * 60_000),
      status: index === 0 ? ('confirmed' as const) : ('pending' as const),
      service_name: service.name,
      price: service.price,
      duration_minutes: service.duration_minutes,
      customer_name: customer.name,
      customer_furigana: customer.furigana,
      customer_email: customer.email,
      customer_phone: customer.phone_number,
      created_by: 'customer' as const,
    };
  });
  await db.insert(reservations).values(bookings);
}
