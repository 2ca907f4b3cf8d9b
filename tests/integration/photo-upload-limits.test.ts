/**
 * Photo uploads are limited per uploader (server/features/karte/upload-limits.ts): with PHOTO_UPLOAD_RATE_LIMIT=2 a
 * customer's third upload in the window is a Japanese 429, whatever booking it is for, and a staff member has five
 * times as many. A file refused from its header and an Idempotency-Key replay are not counted.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { addDaysToDate } from '#src/shared/time';
import {
  at,
  startBookingApp,
  TODAY,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const THROTTLED = { detail: SERVER_MESSAGES.tooManyPhotoUploads, code: 'throttled' };

describe(`photo upload rate limits on ${testEngine}`, () => {
  let world: BookingWorld;
  let staff: StaffMember;
  let customer: CustomerMember;
  let service: ServiceRow;
  let jpeg: Buffer;
  let day = 0;

  beforeAll(async () => {
    world = await startBookingApp({
      env: { PHOTO_UPLOAD_RATE_LIMIT: '2', PHOTO_UPLOAD_RATE_WINDOW_SECONDS: '600' },
      notifications: { autoStart: false },
    });
    staff = await world.staff('photo-staff', '佐藤 美咲');
    customer = await world.customer({ name: '山田 花子' });
    service = await world.service('ジェルネイル', 60, 6000);
    jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#e91e63' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => world?.close());

  async function booking(status: 'pending' | 'completed') {
    day += 1;
    const date = addDaysToDate(TODAY, status === 'completed' ? -day : day);
    const row = await world.insertReservation({
      staffId: staff.id,
      customer,
      service,
      start: at(date, '11:00'),
      status,
    });
    return row.reservation_number;
  }

  function upload(token: string, path: string, bytes: Buffer, key?: string) {
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'nail.jpg');
    return world.api(path, { method: 'POST', token, form, headers: key ? { 'Idempotency-Key': key } : undefined });
  }
  const customerUpload = (number: string, bytes = jpeg, key?: string) =>
    upload(customer.token, `/api/reservations/${number}/photos/`, bytes, key);

  it('refuses a customer past the limit with a Japanese 429 on any booking; a replay is not counted', async () => {
    const first = await booking('pending');
    expect((await customerUpload(first, jpeg, 'reference-1')).status).toBe(201);
    // A file refused from its first bytes costs nothing to refuse, and is not counted.
    expect((await customerUpload(first, Buffer.from('not an image at all'))).status).toBe(415);
    expect((await customerUpload(first)).status).toBe(201);
    // The replay of the first upload is answered from its row, not counted.
    const replay = await customerUpload(first, jpeg, 'reference-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    for (const number of [first, await booking('pending')]) {
      const refused = await customerUpload(number);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body).toEqual(THROTTLED);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('gives a staff member five times the limit, counted apart from customers', async () => {
    const visits = [await booking('completed'), await booking('completed')];
    for (let photo = 1; photo <= 10; photo += 1) {
      const result = await upload(staff.token, `/api/admin/reservations/${visits[photo % 2]}/photos/`, jpeg);
      expect(result.status, `photo ${photo}: ${result.text}`).toBe(201);
    }
    const refused = await upload(staff.token, `/api/admin/reservations/${visits[0]}/photos/`, jpeg);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(THROTTLED);
  });
});
