import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openingSlots,
  reservations,
  salons,
  serviceOptionLinks,
  serviceOptions,
  services,
  shiftTemplates,
  staffUsers,
} from '#server/db/schema';
import { ensureInitialData } from '#server/db/seed';
import { createAvailabilityService } from '#server/features/booking/availability.service';
import { createReadCache } from '#server/features/booking/read-cache';
import { weekdayOf } from '#server/scheduling/working-time';
import { bookingLength } from '#src/shared/slots';
import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant } from '#src/shared/time';
import { createTestDatabase, testEngine } from '#tests/helpers/database';

const TZ = 'Asia/Tokyo';
/** A Monday: the demo salon's closed weekday. */
const MONDAY = '2030-01-07';
/**
 * First starts on each weekday (days after MONDAY). PGlite migrates slowly, so it takes the two that push bookings
 * past a closed Monday and a day off onto the same day (a Saturday and a Sunday); PostgreSQL takes all seven.
 */
const FIRST_START_OFFSETS = testEngine === 'postgres' ? [0, 1, 2, 3, 4, 5, 6] : [5, 6];

async function seededAt(today: string) {
  const database = await createTestDatabase();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'salon-demo-'));
  const now = localDateTimeToInstant(`${today}T08:00:00`, TZ);
  const { salonId } = await ensureInitialData({
    db: database.db,
    dataDir,
    timeZone: TZ,
    adminUsername: 'admin',
    adminPassword: 'demo-seed-password-1',
    demoData: true,
    now,
  });
  return {
    db: database.db,
    salonId,
    now,
    close: async () => {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The demo data of a first start (DEMO_DATA, the default): a salon that can be booked as it is. */
describe(`demo data on ${testEngine}`, { timeout: 120_000 }, () => {
  const opened: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of opened) await close();
  });

  it('gives options, weekly shifts, a closed Monday and 指名料, and bookable starts from the templates', async () => {
    const seeded = await seededAt(MONDAY);
    opened.push(seeded.close);
    const { db, salonId } = seeded;
    const [salon] = await db.select().from(salons).where(eq(salons.id, salonId));
    expect(salon!.closed_weekdays).toEqual([1]);
    const options = await db.select().from(serviceOptions);
    expect(options.map((option) => option.name).sort()).toEqual([
      'アート1本',
      'ジェルオフ',
      'パラジェル',
      '長さだし1本',
    ]);
    // Shared: the one ジェルオフ is allowed by every gel menu.
    const gelOff = options.find((option) => option.name === 'ジェルオフ')!;
    const allowedBy = await db
      .select({ name: services.name })
      .from(serviceOptionLinks)
      .innerJoin(services, eq(services.id, serviceOptionLinks.service_id))
      .where(eq(serviceOptionLinks.option_id, gelOff.id))
      .orderBy(services.sort_order);
    expect(allowedBy.map((row) => row.name)).toEqual([
      'ワンカラージェル',
      'グラデーションジェル',
      'フレンチジェル',
      'アートコース',
    ]);
    const staff = await db.select().from(staffUsers).orderBy(staffUsers.id);
    const sato = staff.find((row) => row.username === 'sato')!;
    const suzuki = staff.find((row) => row.username === 'suzuki')!;
    expect(sato).toMatchObject({ is_bookable: true, nomination_fee: 550 });
    expect(suzuki).toMatchObject({ is_bookable: true, nomination_fee: 1100 });
    expect(sato.profile).not.toBe('');
    expect(staff.find((row) => row.is_superuser)).toMatchObject({ is_bookable: false });
    const shifts = await db.select().from(shiftTemplates);
    expect(shifts.filter((row) => row.staff_id === sato.id).map((row) => row.weekday)).toEqual([2, 3, 4, 5, 6]);
    expect(shifts.filter((row) => row.staff_id === suzuki.id).map((row) => row.weekday)).toEqual([3, 4, 5, 6, 0]);
    expect(await db.select().from(openingSlots)).toEqual([]);

    const availability = createAvailabilityService({
      db,
      salonId,
      timeZone: TZ,
      now: () => seeded.now,
      cache: createReadCache({ ttlMs: 0 }),
    });
    const [oneColour] = await db.select().from(services).where(eq(services.name, 'ワンカラージェル'));
    const length = await availability.lengthOf(oneColour!.duration_minutes, []);
    // Monday: closed. Tuesday: only 佐藤 (10:00–19:00). Sunday: only 鈴木 (11:00–20:00).
    expect(await availability.availableStarts(MONDAY, length)).toEqual([]);
    const tuesday = await availability.availableStarts('2030-01-08', length, sato.id);
    expect(tuesday[0]).toBe('10:00');
    expect(tuesday.at(-1)).toBe('18:00');
    expect(await availability.availableStarts('2030-01-08', length, suzuki.id)).toEqual([]);
    const sunday = await availability.availableStarts('2030-01-13', length);
    expect(sunday[0]).toBe('11:00');
    expect(sunday.at(-1)).toBe('19:00');
    expect(await availability.availableStarts('2030-01-13', length, sato.id)).toEqual([]);
    expect((await availability.bookableDates(2030, 1, length)).filter((date) => weekdayOf(date) === 1)).toEqual([]);
  });

  it('on whichever weekday it first starts, its bookings fall on working days and are priced and timed as booked', async () => {
    for (const offset of FIRST_START_OFFSETS) {
      const today = addDaysToDate(MONDAY, offset);
      const seeded = await seededAt(today);
      opened.push(seeded.close);
      const { db } = seeded;
      const shifts = await db.select().from(shiftTemplates);
      const rows = await db.select().from(reservations);
      expect(rows, today).toHaveLength(3);
      expect(
        rows.filter((row) => row.is_nominated),
        today,
      ).toHaveLength(1);
      expect(
        rows.filter((row) => row.options.length > 0),
        today,
      ).toHaveLength(1);
      const serviceRows = await db.select().from(services);
      const staffRows = await db.select().from(staffUsers);
      for (const row of rows) {
        const date = localDateOf(row.start_time, TZ);
        expect(date > today, today).toBe(true);
        const weekday = weekdayOf(date);
        expect(weekday, `${today}: ${date}`).not.toBe(1);
        const shift = shifts.find((candidate) => candidate.staff_id === row.staff_id && candidate.weekday === weekday);
        expect(shift, `${today}: ${date}`).toBeDefined();
        // Within the shift: 'HH:mm' compares as text.
        expect(instantToLocalDateTime(row.start_time, TZ).slice(11, 16) >= shift!.start_time.slice(0, 5)).toBe(true);
        expect(instantToLocalDateTime(row.end_time, TZ).slice(11, 16) <= shift!.end_time.slice(0, 5)).toBe(true);
        const service = serviceRows.find((candidate) => candidate.id === row.service_id)!;
        const fee = row.is_nominated ? staffRows.find((member) => member.id === row.staff_id)!.nomination_fee : 0;
        expect(row.nomination_fee).toBe(fee);
        expect(row.price).toBe(service.price + row.options.reduce((sum, option) => sum + option.price, 0) + fee);
        const length = bookingLength({
          serviceMinutes: service.duration_minutes,
          optionMinutes: row.options.map((option) => option.duration_minutes),
          roundingMinutes: 5,
          bufferMinutes: 0,
        });
        expect(row.duration_minutes).toBe(length.servedMinutes);
        expect(row.end_time.getTime() - row.start_time.getTime()).toBe(length.servedMinutes * 60_000);
        expect(row.occupied_until.getTime() - row.start_time.getTime()).toBe(length.occupiedMinutes * 60_000);
      }
      await seeded.close();
      opened.pop();
    }
  });
});
