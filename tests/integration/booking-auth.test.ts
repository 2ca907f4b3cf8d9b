/**
 * The booking route takes the customer from the verified token without a lookup of its own: book_reservation()
 * (migration 0025) locks the customer's row first and a token whose customer is gone gets the answer the auth
 * plugin gives it elsewhere (server/plugins/auth.ts customerRowInHandler).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, rateLimitCounters, reservations } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { at, startBookingApp, times, type BookingWorld, type ServiceRow } from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const DAY = '2030-01-20';

describe(`a booking's customer on ${testEngine}`, () => {
  let w: BookingWorld;
  let short: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    const staff = await w.staff('auth-staff');
    short = await w.service('ワンカラー', 30);
    await w.openSlotsDirect(staff.id, [DAY], times('10:00', '18:00'));
  });
  afterAll(() => w?.close());

  it('answers a token whose customer is gone with 401 token_not_valid, books nothing and counts nothing', async () => {
    const gone = await w.customer({ name: '削除 済子', email: 'gone@example.com' });
    await w.db.delete(customers).where(eq(customers.id, gone.id));

    const result = await w.book(gone, short.id, at(DAY, '10:00'));
    expect(result.status, result.text).toBe(401);
    expect(result.body).toEqual({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' });
    expect(await w.db.select().from(reservations).where(eq(reservations.customer_id, gone.id))).toEqual([]);
    expect(await w.db.select().from(rateLimitCounters)).toEqual([]);

    // A customer who is there books as before.
    const hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    expect((await w.book(hanako, short.id, at(DAY, '10:00'))).status).toBe(201);
    expect(await w.db.select().from(rateLimitCounters)).toHaveLength(1);
  });
});
