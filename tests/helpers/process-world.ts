/**
 * Setup for the suites that run the real server as child processes (two instances, faults): rows written
 * straight into the server's database and access tokens signed with its JWT_SECRET, so that no slow password
 * login or LINE round trip is needed before the part under test.
 */
import { randomBytes } from 'node:crypto';
import { eq, type SQL } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { openingSlots, salons, services, staffUsers } from '../../server/db/schema';
import { createTokenSigner } from '../../server/features/auth/tokens';
import { TOKEN_AUDIENCES } from '../../src/shared/constants';
import { slotGrid } from '../../src/shared/slots';
import { addDaysToDate, localDateOf } from '../../src/shared/time';
import { request, type ApiInit, type ApiResult } from './app';
import { createCustomer, createStaff } from './factories';
import { startFakeLineMessaging } from './fake-line-messaging';
import { startFakeSmtp } from './fake-smtp';
import { startServerProcess, type ServerProcess } from './server-process';

export const PROCESS_TZ = 'Asia/Tokyo';
export const PROCESS_ADMIN_PASSWORD = 'process-admin-password-0123';
export const LINE_TOKEN = 'fake-line-channel-access-token';

/** What every server process of one suite shares: one secret, so any instance accepts any token. */
export function sharedServerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    JWT_SECRET: randomBytes(36).toString('base64url'),
    ADMIN_PASSWORD: PROCESS_ADMIN_PASSWORD,
    DEMO_DATA: 'false',
    SALON_TZ: PROCESS_TZ,
    // The suite runs after `npm test` built the app; a rebuild here would race with other suites.
    SKIP_BUILD: 'true',
    // The suites book hundreds of times per customer on purpose.
    BOOKING_RATE_LIMIT: '100000',
    ...extra,
  };
}

export interface Member {
  id: number;
  token: string;
  name: string;
  email: string;
  lineUserId: string | null;
}

export interface ProcessWorld {
  salonId: number;
  admin: Member;
  staff: Member[];
  customers: Member[];
  serviceId: number;
  /** A day a few days ahead (salon-local): far enough for the notice, not tomorrow (no reminders). */
  day: string;
  /** The `yyyy-MM-ddTHH:mm:ss` starts of a 60-minute booking on the 30-minute grid, `day` and the days after it. */
  starts: string[];
}

/** LINE user ids look like LINE's: U + 32 hex digits. */
const lineId = () => `U${randomBytes(16).toString('hex')}`;

/**
 * Staff (each linked to LINE, each open from 10:00 to 18:00 on `days` days from `day`), one 60-minute service, customers with
 * e-mail and LINE, and a salon that allows many upcoming bookings per customer.
 */
export async function seedProcessWorld(
  /** The server's database: its DATABASE_URL, or its PGlite folder (DATA_DIR/db) while no server has it open. */
  target: { databaseUrl: string } | { dataDir: string },
  jwtSecret: string,
  options: { staff: number; customers: number; dayOffset?: number; days?: number },
): Promise<ProcessWorld> {
  const database = await openDatabase(target);
  try {
    const { db } = database;
    const [salon] = await db.select().from(salons).limit(1);
    if (!salon) throw new Error('no salon: start a server on this database first');
    await db
      .update(salons)
      .set({ max_upcoming_per_customer: 1000, reminders_enabled: false })
      .where(eq(salons.id, salon.id));
    const signer = createTokenSigner({ secret: jwtSecret, accessTtlSeconds: 3600, refreshTtlSeconds: 86_400 });
    const token = async (audience: 'staff' | 'customer', id: number) =>
      (await signer.sign({ audience: TOKEN_AUDIENCES[audience], subjectId: id, tokenType: 'access' })).token;

    const [adminRow] = await db.select().from(staffUsers).where(eq(staffUsers.is_superuser, true)).limit(1);
    const day = addDaysToDate(localDateOf(new Date(), PROCESS_TZ), options.dayOffset ?? 5);
    const days = Array.from({ length: options.days ?? 1 }, (_, i) => addDaysToDate(day, i));
    const slotTimes = slotGrid('10:00', '18:00');

    const staff: Member[] = [];
    for (let i = 0; i < options.staff; i += 1) {
      const row = await createStaff(db, salon.id, {
        username: `staff${i}_${randomBytes(3).toString('hex')}`,
        fullName: `スタッフ ${i}`,
      });
      const line = lineId();
      await db.update(staffUsers).set({ line_user_id: line }).where(eq(staffUsers.id, row.id));
      await db
        .insert(openingSlots)
        .values(
          days.flatMap((date) =>
            slotTimes.map((time) => ({ staff_id: row.id, salon_id: salon.id, slot_date: date, start_time: time })),
          ),
        );
      staff.push({
        id: row.id,
        token: await token('staff', row.id),
        name: row.full_name,
        email: row.email,
        lineUserId: line,
      });
    }
    const [service] = await db
      .insert(services)
      .values({ salon_id: salon.id, name: 'ワンカラージェル', duration_minutes: 60, price: 5500 })
      .returning();
    const members: Member[] = [];
    for (let i = 0; i < options.customers; i += 1) {
      const email = `customer${i}.${randomBytes(3).toString('hex')}@example.com`;
      const row = await createCustomer(db, salon.id, {
        name: `顧客 ${i}`,
        furigana: 'コキャク',
        email,
        lineUserId: lineId(),
      });
      members.push({
        id: row.id,
        token: await token('customer', row.id),
        name: row.name,
        email,
        lineUserId: row.line_user_id,
      });
    }
    return {
      salonId: salon.id,
      admin: {
        id: adminRow!.id,
        token: await token('staff', adminRow!.id),
        name: adminRow!.full_name,
        email: adminRow!.email,
        lineUserId: null,
      },
      staff,
      customers: members,
      serviceId: service!.id,
      day,
      starts: days.flatMap((date) => slotGrid('10:00', '17:30').map((time) => `${date}T${time}:00`)),
    };
  } finally {
    await database.close();
  }
}

/**
 * A fake SMTP server and a fake LINE Messaging API, each answering after `delayMs`, and the server environment
 * that sends to them; `database` is the server's DATABASE_URL or DATA_DIR.
 */
export async function startFakePeers(database: { DATABASE_URL: string } | { DATA_DIR: string }, delayMs = 0) {
  const [smtp, line] = await Promise.all([startFakeSmtp(), startFakeLineMessaging({ accessToken: LINE_TOKEN })]);
  smtp.acceptDelayMs = delayMs;
  line.delayMs = delayMs;
  const env = sharedServerEnv({
    ...database,
    SMTP_URL: smtp.url,
    LINE_MESSAGING_ACCESS_TOKEN: LINE_TOKEN,
    LINE_API_BASE: line.url,
  });
  return { smtp, line, env };
}

/**
 * A notifications_outbox row as the process tests read it with SQL (the retry key as text); reservation_number
 * only where the query joins the reservation.
 */
export interface OutboxRow {
  id: number;
  channel: 'email' | 'line';
  kind: string;
  recipient: string;
  reservation_id: number | null;
  reservation_number?: string | null;
  retry_key: string;
  status: string;
  attempts: number;
}

/** The rows of a raw query (both drivers answer `{ rows }`). */
export async function queryRows<T>(handle: DatabaseHandle, query: SQL): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** POST /api/reservations/ as `customer` against one server. */
export function bookOn(
  baseUrl: string,
  world: ProcessWorld,
  customer: Member,
  startTime: string,
  init: ApiInit = {},
): Promise<ApiResult> {
  return request(baseUrl, '/api/reservations/', {
    method: 'POST',
    token: customer.token,
    json: {
      salon: world.salonId,
      service: world.serviceId,
      start_time: startTime,
      customer_name: customer.name,
      customer_furigana: 'コキャク',
      customer_email: customer.email,
      customer_phone: '09012345678',
    },
    ...init,
  });
}

/**
 * Starts several server processes at once. If one fails to start, the others are stopped before the error is
 * thrown: the suite's afterAll never learns about them, and they would outlive the run.
 */
export async function startServerProcesses(envs: Array<Record<string, string>>): Promise<ServerProcess[]> {
  const results = await Promise.allSettled(envs.map((env) => startServerProcess(env)));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(results.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    throw failure.reason;
  }
  return results.map((result) => (result as PromiseFulfilledResult<ServerProcess>).value);
}

/** Polls `check` until it returns a value other than undefined, or throws after `ms` with `describe()`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  ms: number,
  describe: () => Promise<string> | string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms: ${await describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
