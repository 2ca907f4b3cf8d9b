import fs from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffPictureDirOf } from '../../server/features/staff/staff-picture';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { startBookingApp, times, type BookingWorld, type StaffMember } from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/** fetch() with its body read: an unread body keeps the connection busy, and the app's close() waits for it. */
async function fetched(url: string): Promise<Response & { bytes: Buffer }> {
  const response = await fetch(url);
  return Object.assign(response, { bytes: Buffer.from(await response.arrayBuffer()) });
}

/**
 * Issue 32 item 5: the owner uploads a staff photo (POST /api/admin/users/{id}/picture/); the app crops it to a
 * centred square, resizes it, stores it like カルテ photos and serves it from its own origin, where the customer's
 * 指名 step (GET /api/staff/) shows it.
 */
describe(`staff photos on ${testEngine}`, () => {
  let w: BookingWorld;
  let nailist: StaffMember;
  let desk: StaffMember;
  /** 90 × 30: red, green and blue thirds; the centre square is the green one. */
  let wide: Buffer;

  beforeAll(async () => {
    w = await startBookingApp();
    nailist = await w.staff('pic-nailist', '佐藤 美咲');
    desk = await w.staff('pic-desk', '受付 花', 'front_desk');
    // Customers see staff with working time.
    await w.openSlots(nailist.id, '2030-02-04', times('10:00', '12:00'));
    const third = (background: string) =>
      sharp({ create: { width: 30, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const [red, green, blue] = await Promise.all([third('#ff0000'), third('#00ff00'), third('#0000ff')]);
    wide = await sharp({ create: { width: 90, height: 30, channels: 3, background: '#000000' } })
      .composite([
        { input: red, left: 0, top: 0 },
        { input: green, left: 30, top: 0 },
        { input: blue, left: 60, top: 0 },
      ])
      .jpeg({ quality: 95 })
      .toBuffer();
  });
  afterAll(() => w?.close());

  const files = async () => (await fs.readdir(staffPictureDirOf(w.t.env.uploadDir)).catch(() => [] as string[])).sort();

  function upload(token: string | undefined, staffId: number, bytes: Buffer, filename = 'face.jpg') {
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), filename);
    return w.api(`/api/admin/users/${staffId}/picture/`, { method: 'POST', token, form });
  }

  it('the owner uploads a photo: a centred square served from the app, shown in the customers’ staff list', async () => {
    const result = await upload(w.admin.token, nailist.id, wide);
    expect(result.status, result.text).toBe(200);
    const url = result.body.picture_url as string;
    expect(url).toMatch(/^\/api\/staff-pictures\/[0-9a-f]{32}\.(jpg|png)$/);
    expect(result.body).toMatchObject({ id: nailist.id, full_name: '佐藤 美咲', role: 'nailist' });

    const image = await fetched(`${w.t.url}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/(png|jpeg)$/);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const { width, height } = await sharp(image.bytes).metadata();
    expect([width, height]).toEqual([480, 480]);
    // Cropped from the centre: green from edge to edge.
    const { data, info } = await sharp(image.bytes).raw().toBuffer({ resolveWithObject: true });
    for (const x of [40, 240, 440]) {
      const at = (240 * info.width + x) * info.channels;
      const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
      expect(g, `pixel ${x}`).toBeGreaterThan(200);
      expect(r + b, `pixel ${x}`).toBeLessThan(80);
    }

    const bookable = await w.api('/api/staff/');
    expect(bookable.body).toContainEqual(expect.objectContaining({ id: nailist.id, picture_url: url }));

    // A new photo replaces the old one, whose file goes.
    const before = await files();
    const second = await upload(w.admin.token, nailist.id, wide);
    expect(second.status).toBe(200);
    expect((await fetched(`${w.t.url}${url}`)).status).toBe(404);
    expect((await files()).length).toBe(before.length);
  });

  it('refuses what is not an image, or too large, in Japanese, storing nothing', async () => {
    const before = await files();
    const text = await upload(w.admin.token, nailist.id, Buffer.from('<html>not a picture</html>'), 'face.png');
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({
      detail: SERVER_MESSAGES.imageUnsupported,
      fields: { photo: [expect.any(String)] },
    });
    const huge = await upload(w.admin.token, nailist.id, Buffer.concat([wide, Buffer.alloc(11 * 1024 * 1024)]));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ detail: SERVER_MESSAGES.imageTooLarge });
    const none = await w.api(`/api/admin/users/${nailist.id}/picture/`, {
      method: 'POST',
      token: w.admin.token,
      form: new FormData(),
    });
    expect(none.status).toBe(400);
    expect(await files()).toEqual(before);
  });

  it('is the owner’s alone: the front desk, a nailist (even for themselves) and strangers are refused', async () => {
    const before = await files();
    expect((await upload(desk.token, nailist.id, wide)).status).toBe(403);
    expect((await upload(nailist.token, nailist.id, wide)).status).toBe(403);
    expect((await upload(undefined, nailist.id, wide)).status).toBe(401);
    const unknown = await upload(w.admin.token, 999_999, wide);
    expect(unknown.status).toBe(404);
    expect(await files()).toEqual(before);
    expect((await fetched(`${w.t.url}/api/staff-pictures/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
