/**
 * カルテ photos and notes (server/features/karte): stored through the image safety of media-store.ts into a private
 * folder, served only by signed URLs handed to staff in scope and to the reservation's own customer; uploads
 * replayed with their Idempotency-Key (the staff app's offline outbox) store one photo.
 */
import fs from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitNotes, visitPhotos } from '#server/db/schema';
import { createPhotoUrlSigner, karteDirOf } from '#server/integrations/storage/karte-photos';
import { sweepOrphanUploads } from '#server/integrations/storage/orphan-uploads';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { REFERENCE_PHOTO_LIMIT, VISIT_PHOTO_LIMIT } from '#src/shared/schemas/karte';
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

describe(`visit photos (カルテ) on ${testEngine}`, () => {
  let world: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let customer: CustomerMember;
  let otherCustomer: CustomerMember;
  let service: ServiceRow;
  let jpeg: Buffer;
  let day = 0;

  beforeAll(async () => {
    world = await startBookingApp({ notifications: { autoStart: false } });
    staffA = await world.staff('karte-a', '佐藤 美咲');
    staffB = await world.staff('karte-b', '田中 由美');
    customer = await world.customer({ name: '山田 花子', assignedStaffId: staffA.id });
    otherCustomer = await world.customer({ name: '鈴木 結衣' });
    service = await world.service('ジェルネイル', 90, 8000);
    jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#e91e63' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => world?.close());

  const karteDir = () => karteDirOf(world.t.env.uploadDir);
  const karteFiles = async () => (await fs.readdir(karteDir()).catch(() => [] as string[])).sort();
  const photoRows = async () => (await world.db.select({ value: count() }).from(visitPhotos))[0]!.value;

  /** A past visit of `customer` with staff A (completed), or a future pending booking. */
  async function visit(status: 'completed' | 'pending' = 'completed', who: CustomerMember = customer) {
    day += 1;
    const date = addDaysToDate(TODAY, status === 'completed' ? -day : day);
    const row = await world.insertReservation({
      staffId: staffA.id,
      customer: who,
      service,
      start: at(date, '11:00'),
      status,
    });
    return row.reservation_number;
  }

  function upload(
    token: string,
    path: string,
    bytes: Buffer,
    options: { filename?: string; type?: string; key?: string } = {},
  ) {
    const form = new FormData();
    form.set(
      'photo',
      new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/jpeg' }),
      options.filename ?? 'nail.jpg',
    );
    return world.api(path, {
      method: 'POST',
      token,
      form,
      headers: options.key ? { 'Idempotency-Key': options.key } : undefined,
    });
  }
  const staffUpload = (staff: StaffMember, number: string, bytes = jpeg, options = {}) =>
    upload(staff.token, `/api/admin/reservations/${number}/photos/`, bytes, options);

  /** A refusal: its status and Japanese detail, and nothing written (no file, no row). */
  async function expectRefused(send: () => ReturnType<typeof upload>, status: number, detail: string) {
    const [files, rows] = [await karteFiles(), await photoRows()];
    const result = await send();
    expect(result.status, result.text).toBe(status);
    expect(result.body).toMatchObject({ detail });
    expect(await karteFiles()).toEqual(files);
    expect(await photoRows()).toBe(rows);
  }

  it('staff in scope upload a photo to a completed visit; it is listed and served only by its signed URL', async () => {
    const number = await visit();
    const before = await karteFiles();
    const result = await staffUpload(staffA, number);
    expect(result.status, result.text).toBe(201);
    expect(result.body).toMatchObject({ kind: 'visit', uploaded_by: 'staff' });
    // The re-encoded image and its preview, in the private folder.
    const added = (await karteFiles()).filter((name) => !before.includes(name));
    expect(added).toHaveLength(2);
    expect(added.some((name) => name.endsWith('-preview.jpg'))).toBe(true);

    const karte = await world.api(`/api/admin/reservations/${number}/karte/`, { token: staffA.token });
    expect(karte.status).toBe(200);
    expect(karte.body).toMatchObject({ status: 'completed', note: '', photos: [{ id: result.body.id }] });

    const image = await fetched(`${world.t.url}${result.body.url as string}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('cache-control')).toContain('private');
    expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 40, height: 30 });
    const thumbnail = await fetched(`${world.t.url}${result.body.thumbnail_url as string}`);
    expect(thumbnail.status).toBe(200);

    // Not public like /media, and the URL is the only key: a changed or missing signature, or an expired URL, is 404.
    const stored = added.find((name) => !name.includes('-preview'))!;
    expect((await fetched(`${world.t.url}/media/${stored}`)).status).toBe(404);
    const url = new URL(result.body.url as string, world.t.url);
    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
    expect((await fetched(tampered)).status).toBe(404);
    expect((await fetched(`${world.t.url}${url.pathname}`)).status).toBe(404);
    const otherPhoto = new URL(url);
    otherPhoto.pathname = url.pathname.replace(
      `/${result.body.id as number}/`,
      `/${(result.body.id as number) + 1000}/`,
    );
    expect((await fetched(otherPhoto)).status).toBe(404);
    const yesterday = createPhotoUrlSigner({
      secret: world.t.jwtSecret,
      now: () => new Date(Date.parse('2030-01-09T00:00:00Z')),
    });
    expect((await fetched(`${world.t.url}${yesterday.urlFor(result.body.id as number, 'full')}`)).status).toBe(404);
  });

  it('a booking that is not a completed visit takes no visit photo (409), and nothing is stored', async () => {
    const number = await visit('pending');
    await expectRefused(() => staffUpload(staffA, number), 409, SERVER_MESSAGES.visitNotCompleted);
  });

  it('hostile files are refused with a Japanese 4xx and nothing is stored', async () => {
    const number = await visit();
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    await expectRefused(() => staffUpload(staffA, number, html), 415, SERVER_MESSAGES.imageUnsupported);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
    );
    await expectRefused(() => staffUpload(staffA, number, svg), 415, SERVER_MESSAGES.imageUnsupported);
    // A real image under a name made to be opened as a page.
    await expectRefused(
      () => staffUpload(staffA, number, jpeg, { filename: 'page.html', type: 'text/html' }),
      415,
      SERVER_MESSAGES.imageUnsupported,
    );
    // The first half of a JPEG: the type sniffs right, the decoder fails.
    await expectRefused(
      () => staffUpload(staffA, number, jpeg.subarray(0, Math.floor(jpeg.length / 2))),
      415,
      SERVER_MESSAGES.imageUnreadable,
    );
    // A tiny PNG whose header claims 60000 × 60000 pixels (a decompression bomb's shape): refused from the header.
    await expectRefused(
      async () => staffUpload(staffA, number, await hugePng(), { filename: 'huge.png' }),
      400,
      SERVER_MESSAGES.imageTooManyPixels,
    );
    await expectRefused(() => staffUpload(staffA, number, Buffer.alloc(0)), 400, SERVER_MESSAGES.photoRequired);
  });

  it('another ordinary staff member gets 404 for everything of a visit that is not theirs', async () => {
    const number = await visit();
    const photo = await staffUpload(staffA, number);
    expect(photo.status).toBe(201);
    const notes = await world.db.select({ value: count() }).from(visitNotes);

    await expectRefused(() => staffUpload(staffB, number), 404, MESSAGES.reservationNotFound);
    expect((await world.api(`/api/admin/reservations/${number}/karte/`, { token: staffB.token })).status).toBe(404);
    expect((await world.api(`/api/admin/customers/${customer.id}/visits/`, { token: staffB.token })).status).toBe(404);
    const note = await world.api(`/api/admin/reservations/${number}/visit-note/`, {
      method: 'PUT',
      token: staffB.token,
      json: { note: '上書き' },
    });
    expect(note.status).toBe(404);
    const deleted = await world.api(`/api/admin/visit-photos/${photo.body.id as number}/`, {
      method: 'DELETE',
      token: staffB.token,
    });
    expect(deleted.status).toBe(404);
    expect(await world.db.select({ value: count() }).from(visitNotes)).toEqual(notes);
    // Their bearer token does not open the photo either: only the signed URL does, and they are never given one.
    const direct = await fetched(`${world.t.url}/api/visit-photos/${photo.body.id as number}/full/`, {
      headers: { authorization: `Bearer ${staffB.token}` },
    });
    expect(direct.status).toBe(404);
    // The superuser reaches it.
    expect((await world.api(`/api/admin/reservations/${number}/karte/`, { token: world.admin.token })).status).toBe(
      200,
    );
  });

  it('the customer detail lists completed visits newest first with their note and photos', async () => {
    const fresh = await world.customer({ name: '高橋 彩', assignedStaffId: staffA.id });
    const older = await visit('completed', fresh);
    const newer = await visit('completed', fresh);
    const pending = await visit('pending', fresh);
    const saved = await world.api(`/api/admin/reservations/${newer}/visit-note/`, {
      method: 'PUT',
      token: staffA.token,
      json: { note: '  マグネットネイル、次回は短めに  ' },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.note).toBe('マグネットネイル、次回は短めに');
    expect((await staffUpload(staffA, older)).status).toBe(201);

    const visits = await world.api(`/api/admin/customers/${fresh.id}/visits/`, { token: staffA.token });
    expect(visits.status).toBe(200);
    const list = visits.body as unknown as Array<Record<string, unknown>>;
    // `visit()` steps one day further back each time: the first made is the newest.
    expect(list.map((item) => item.reservation_number)).toEqual([older, newer]);
    expect(list.map((item) => item.reservation_number)).not.toContain(pending);
    expect(list[1]).toMatchObject({
      note: 'マグネットネイル、次回は短めに',
      service_name: 'ジェルネイル',
      staff_name: '佐藤 美咲',
      photos: [],
    });
    expect((list[0]!.photos as unknown[]).length).toBe(1);

    const tooLong = await world.api(`/api/admin/reservations/${newer}/visit-note/`, {
      method: 'PUT',
      token: staffA.token,
      json: { note: 'あ'.repeat(2001) },
    });
    expect(tooLong.status).toBe(400);
    const onPending = await world.api(`/api/admin/reservations/${pending}/visit-note/`, {
      method: 'PUT',
      token: staffA.token,
      json: { note: 'まだ' },
    });
    expect(onPending.status).toBe(409);
    expect(onPending.body.detail).toBe(SERVER_MESSAGES.visitNotCompleted);
  });

  it('a customer attaches a reference image to their own booking and sees it; another customer gets 404', async () => {
    const number = await visit('pending');
    const path = `/api/reservations/${number}/photos/`;
    const result = await upload(customer.token, path, jpeg);
    expect(result.status, result.text).toBe(201);
    expect(result.body).toMatchObject({ kind: 'reference', uploaded_by: 'customer' });

    const own = await world.api(path, { token: customer.token });
    expect(own.status).toBe(200);
    const photos = own.body as unknown as Array<Record<string, unknown>>;
    expect(photos.map((photo) => photo.id)).toEqual([result.body.id]);
    expect((await fetched(`${world.t.url}${photos[0]!.url as string}`)).status).toBe(200);
    // The staff member of the booking sees it on the reservation's karte.
    const karte = await world.api(`/api/admin/reservations/${number}/karte/`, { token: staffA.token });
    expect(karte.body.photos).toMatchObject([{ id: result.body.id, kind: 'reference' }]);

    expect((await world.api(path, { token: otherCustomer.token })).status).toBe(404);
    await expectRefused(() => upload(otherCustomer.token, path, jpeg), 404, MESSAGES.reservationNotFound);
    // A customer cannot add pictures to a finished visit's karte.
    await expectRefused(
      async () => upload(customer.token, `/api/reservations/${await visit()}/photos/`, jpeg),
      409,
      SERVER_MESSAGES.referenceNotOpen,
    );
  });

  it('a replay with the same Idempotency-Key stores one photo, even when the two arrive together', async () => {
    const number = await visit();
    const before = await karteFiles();
    const first = await staffUpload(staffA, number, jpeg, { key: 'offline-photo-1' });
    const again = await staffUpload(staffA, number, jpeg, { key: 'offline-photo-1' });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const together = await Promise.all(
      [1, 2, 3].map(() => staffUpload(staffA, number, jpeg, { key: 'offline-photo-2' })),
    );
    expect(together.map((result) => result.status)).toEqual([201, 201, 201]);
    expect(new Set(together.map((result) => result.body.id)).size).toBe(1);

    const karte = await world.api(`/api/admin/reservations/${number}/karte/`, { token: staffA.token });
    expect((karte.body.photos as unknown[]).length).toBe(2);
    // Two photos, each with its preview: the losers' files were removed.
    expect((await karteFiles()).length - before.length).toBe(4);
    // The key belongs to its reservation: reused for another one it is refused.
    const elsewhere = await staffUpload(staffA, await visit(), jpeg, { key: 'offline-photo-1' });
    expect(elsewhere.status).toBe(422);
  });

  it('the photo limits hold under concurrent uploads', async () => {
    const number = await visit();
    const results = await Promise.all(Array.from({ length: VISIT_PHOTO_LIMIT + 3 }, () => staffUpload(staffA, number)));
    expect(results.filter((result) => result.status === 201)).toHaveLength(VISIT_PHOTO_LIMIT);
    const refused = results.filter((result) => result.status !== 201);
    expect(refused.map((result) => result.status)).toEqual([409, 409, 409]);
    expect(refused[0]!.body.detail).toBe(SERVER_MESSAGES.visitPhotoLimit(VISIT_PHOTO_LIMIT));

    const booking = await visit('pending');
    const references = await Promise.all(
      Array.from({ length: REFERENCE_PHOTO_LIMIT + 2 }, () =>
        upload(customer.token, `/api/reservations/${booking}/photos/`, jpeg),
      ),
    );
    expect(references.filter((result) => result.status === 201)).toHaveLength(REFERENCE_PHOTO_LIMIT);
  });

  it('a deleted photo is gone with its files; the orphan sweep keeps the photos rows name', async () => {
    const number = await visit();
    const photo = await staffUpload(staffA, number);
    const kept = await staffUpload(staffA, number);
    const before = await karteFiles();
    const deleted = await world.api(`/api/admin/visit-photos/${photo.body.id as number}/`, {
      method: 'DELETE',
      token: staffA.token,
    });
    expect(deleted.status).toBe(204);
    expect(before.length - (await karteFiles()).length).toBe(2);
    expect((await fetched(`${world.t.url}${photo.body.url as string}`)).status).toBe(404);
    expect(
      (
        await world.db
          .select()
          .from(visitPhotos)
          .where(eq(visitPhotos.id, photo.body.id as number))
      ).length,
    ).toBe(0);

    // Long after: every file still named by a row stays (the sweep reads visit_photos).
    const files = await karteFiles();
    const swept = await sweepOrphanUploads({
      dir: karteDir(),
      db: world.db,
      now: () => new Date(Date.now() + 86_400_000),
    });
    expect(swept.unreferenced).toEqual([]);
    expect(await karteFiles()).toEqual(files);
    expect((await fetched(`${world.t.url}${kept.body.url as string}`)).status).toBe(200);
  });
});

/** fetch() with its body read: an unread body keeps the connection busy, and the app's close() waits for it. */
async function fetched(input: string | URL, init?: RequestInit): Promise<Response & { bytes: Buffer }> {
  const response = await fetch(input, init);
  return Object.assign(response, { bytes: Buffer.from(await response.arrayBuffer()) });
}

/** A valid 1 × 1 PNG whose IHDR is rewritten to claim 60000 × 60000 pixels (with a correct CRC). */
async function hugePng(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } })
      .png()
      .toBuffer(),
  );
  // Signature (8) + length (4) + "IHDR" (4): width and height follow, then 5 bytes, then the CRC over type + data.
  png.writeUInt32BE(60_000, 16);
  png.writeUInt32BE(60_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}
