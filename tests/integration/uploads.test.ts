import fs from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { customers, lineMessages, notificationsOutbox, staffUsers } from '../../server/db/schema';
import { createMessagesService } from '../../server/features/messages/messages.service';
import { createMediaStore } from '../../server/integrations/storage/media-store';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer } from '../helpers/factories';

const PUBLIC_URL = 'https://salon.example.jp';
const MEDIA_URL = /^https:\/\/salon\.example\.jp\/media\/([0-9a-f]{32}\.(jpg|png|webp|gif))$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** docs/architecture.md#line-and-e-mail uploads: type by magic bytes, 10 MB, re-encoded without metadata, random names, safe serving. */
describe(`uploads and media on ${testEngine}`, () => {
  let t: TestApp;
  let token: string;
  let customerId: number;
  let png: Buffer;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL }, notifications: { autoStart: false } });
    token = (await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).access;
    customerId = (await createCustomer(t.database.db, t.salonId, { lineUserId: 'U00000000000000000000000000000001' }))
      .id;
    png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#e91e63' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  function upload(bytes: Buffer, filename: string, type: string, text?: string) {
    const form = new FormData();
    if (text !== undefined) form.set('text', text);
    form.set('image', new Blob([new Uint8Array(bytes)], { type }), filename);
    return t.api(`/api/admin/customers/${customerId}/send-message/`, { method: 'POST', token, form });
  }

  /** Every entry of the upload directory, temporary files included. */
  async function uploadDirEntries(): Promise<string[]> {
    return (await fs.readdir(t.env.uploadDir).catch(() => [] as string[])).sort();
  }
  async function rowCounts() {
    const db = t.database.db;
    const [messages] = await db.select({ value: count() }).from(lineMessages);
    const [outbox] = await db.select({ value: count() }).from(notificationsOutbox);
    return { messages: messages!.value, outbox: outbox!.value };
  }

  /** A refusal: the status, a Japanese detail, and nothing written anywhere. */
  async function expectRefused(
    send: () => Promise<{ status: number; body: Record<string, unknown> }>,
    status: number,
    detail: string,
  ) {
    const [filesBefore, rowsBefore] = await Promise.all([uploadDirEntries(), rowCounts()]);
    const result = await send();
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ detail });
    expect(await uploadDirEntries()).toEqual(filesBefore);
    expect(await rowCounts()).toEqual(rowsBefore);
  }

  it('a PNG renamed .html is refused; a PNG under an image name (whatever Content-Type) is stored and served as image/png', async () => {
    await expectRefused(() => upload(png, 'page.html', 'text/html'), 415, SERVER_MESSAGES.imageUnsupported);
    await expectRefused(() => upload(png, 'page.html', 'image/png'), 415, SERVER_MESSAGES.imageUnsupported);

    const before = await uploadDirEntries();
    const result = await upload(png, 'nail.PNG', 'text/html');
    expect(result.status).toBe(201);
    const match = MEDIA_URL.exec(String(result.body.image_url));
    expect(match, String(result.body.image_url)).not.toBeNull();
    const name = match![1]!;
    expect(name.endsWith('.png')).toBe(true);
    // The image and its preview, nothing else.
    expect(await uploadDirEntries()).toEqual([...before, name, name.replace('.png', '-preview.jpg')].sort());

    const media = await fetch(`${t.url}/media/${name}`);
    const bytes = Buffer.from(await media.arrayBuffer());
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(media.headers.get('x-content-type-options')).toBe('nosniff');
    expect(media.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(media.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 8, height: 6 });
  });

  it('every stored file gets a new random name', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const result = await upload(png, 'same.png', 'image/png');
      expect(result.status).toBe(201);
      names.add(MEDIA_URL.exec(String(result.body.image_url))![1]!);
    }
    expect(names.size).toBe(3);
  });

  it('an SVG is refused with 415 and nothing is written', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
    );
    await expectRefused(
      () => upload(svg, 'logo.svg', 'image/svg+xml', 'ロゴです'),
      415,
      SERVER_MESSAGES.imageUnsupported,
    );
    // Refused by its bytes too, not only by its name.
    await expectRefused(() => upload(svg, 'logo.png', 'image/png', 'ロゴです'), 415, SERVER_MESSAGES.imageUnsupported);
  });

  it('a text file or an HTML page with an image Content-Type is refused with 415', async () => {
    await expectRefused(
      () => upload(Buffer.from('ただのテキストです。\n'), 'photo.jpg', 'image/jpeg'),
      415,
      SERVER_MESSAGES.imageUnsupported,
    );
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    await expectRefused(() => upload(html, 'photo.png', 'image/png'), 415, SERVER_MESSAGES.imageUnsupported);
  });

  it('a file with image magic bytes that does not decode is refused with 415', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x41)]);
    await expectRefused(() => upload(broken, 'broken.jpg', 'image/jpeg'), 415, SERVER_MESSAGES.imageUnreadable);
  });

  it('a file over 10 MB is refused with 413 (the truncated stream never becomes a 500)', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
    png.copy(big);
    await expectRefused(() => upload(big, 'big.png', 'image/png', '大きな画像'), 413, SERVER_MESSAGES.imageTooLarge);
    // The server is still fine afterwards.
    expect((await upload(png, 'small.png', 'image/png')).status).toBe(201);
  });

  it('a JPEG with EXIF (GPS, orientation) comes back re-encoded, upright and without any metadata', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#2196f3' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-owner', Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const original = await sharp(jpeg).metadata();
    expect(original.exif).toBeDefined();
    expect(original.orientation).toBe(6);
    expect(jpeg.includes('secret-owner')).toBe(true);

    const result = await upload(jpeg, 'IMG_0001.JPG', 'image/jpeg');
    expect(result.status).toBe(201);
    const name = MEDIA_URL.exec(String(result.body.image_url))![1]!;
    expect(name.endsWith('.jpg')).toBe(true);
    const media = await fetch(`${t.url}/media/${name}`);
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    const served = Buffer.from(await media.arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    // Orientation 6 (rotate 90°) was applied to the pixels before the EXIF went.
    expect([metadata.width, metadata.height]).toEqual([20, 40]);
    expect(served.includes('secret-owner')).toBe(false);
    expect(served.includes('Exif')).toBe(false);
    expect(served).not.toEqual(jpeg);
  });

  it('WebP and GIF are kept as what LINE shows (JPEG, or PNG when transparent), each with a small JPEG preview', async () => {
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    const clearWebp = await sharp({
      create: { width: 4, height: 4, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .webp()
      .toBuffer();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#0f0' } })
      .gif()
      .toBuffer();
    const kept = async (bytes: Buffer, filename: string, type: string) => {
      const result = await upload(bytes, filename, type);
      expect(result.status).toBe(201);
      const name = MEDIA_URL.exec(String(result.body.image_url))![1]!;
      const served = await fetch(`${t.url}/media/${name}`);
      return {
        ext: name.split('.').pop(),
        type: served.headers.get('content-type'),
        format: (await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format,
      };
    };
    expect(await kept(webp, 'a.webp', 'application/octet-stream')).toEqual({
      ext: 'jpg',
      type: 'image/jpeg',
      format: 'jpeg',
    });
    expect(await kept(clearWebp, 'clear.webp', 'image/webp')).toEqual({ ext: 'png', type: 'image/png', format: 'png' });
    expect(await kept(gif, 'b.jpg', 'image/jpeg')).toEqual({ ext: 'png', type: 'image/png', format: 'png' });
  });

  it('keeps a preview of at most 480 pixels a side beside every image, and removes both together', async () => {
    const media = createMediaStore({
      dir: path.join(t.env.dataDir, 'preview-test'),
      publicUrl: 'https://salon.example.jp',
    });
    const large = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#c2255c' } })
      .png()
      .toBuffer();
    const stored = await media.saveImage(large);
    expect(stored.previewUrl).toBe(stored.url.replace(/\.png$/, '-preview.jpg'));
    const preview = await media.locate(stored.previewUrl.split('/').pop()!);
    expect(preview).toMatchObject({ contentType: 'image/jpeg' });
    expect(preview!.size).toBeLessThan(1024 * 1024);
    expect(await sharp(preview!.filePath).metadata()).toMatchObject({ format: 'jpeg', width: 480, height: 240 });
    await media.remove(stored.name);
    expect(await fs.readdir(media.dir)).toEqual([]);
  });

  it('GET /media serves only names of the store’s own shape: traversal and anything else is 404', async () => {
    // A file in the upload directory whose name the store would never give out.
    await fs.mkdir(t.env.uploadDir, { recursive: true });
    await fs.writeFile(path.join(t.env.uploadDir, 'notes.txt'), 'private');
    const stored = MEDIA_URL.exec(String((await upload(png, 'x.png', 'image/png')).body.image_url))![1]!;
    const probes = [
      '..%2f..%2fetc%2fpasswd',
      '..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '%2e%2e%2fpackage.json',
      '..%5c..%5cpackage.json',
      'notes.txt',
      stored.toUpperCase(),
      stored.replace('.png', '.html'),
      `${stored}%00.txt`,
      `${'0'.repeat(32)}.png`,
      `${stored}/`,
    ];
    for (const probe of probes) {
      const response = await fetch(`${t.url}/media/${probe}`);
      const body = await response.text();
      expect(response.status, probe).toBe(404);
      expect(body, probe).not.toContain('root:');
      expect(body, probe).not.toContain('private');
    }
    expect((await fetch(`${t.url}/media/${stored}`)).status).toBe(200);
  });

  it('an upload to a customer without LINE is refused before anything is stored', async () => {
    const walkIn = await createCustomer(t.database.db, t.salonId, { name: '来店 のみ' });
    const [filesBefore, rowsBefore] = await Promise.all([uploadDirEntries(), rowCounts()]);
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'x.png');
    const result = await t.api(`/api/admin/customers/${walkIn.id}/send-message/`, { method: 'POST', token, form });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ detail: MESSAGES.customerNotLineLinked });
    expect(await uploadDirEntries()).toEqual(filesBefore);
    expect(await rowCounts()).toEqual(rowsBefore);
    expect(await t.database.db.select().from(customers).where(eq(customers.id, walkIn.id))).toHaveLength(1);
  });

  it('a send whose transaction fails removes the image it had stored', async () => {
    const db = t.database.db;
    const dir = await fs.mkdtemp(path.join(t.env.dataDir, 'media-'));
    const media = createMediaStore({ dir, publicUrl: PUBLIC_URL });
    // The real database, except that every transaction fails (a database that went away mid-request).
    const failing = Object.create(db, {
      transaction: { value: () => Promise.reject(new Error('connection terminated')) },
    }) as Database;
    const service = createMessagesService({
      db: failing,
      salonId: t.salonId,
      timeZone: t.env.SALON_TZ,
      now: () => new Date(),
      media,
      afterQueue: () => {},
    });
    const [admin] = await db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    const staff = {
      id: admin!.id,
      salonId: t.salonId,
      username: admin!.username,
      role: 'owner' as const,
      isSuperuser: true,
    };
    const recipient = await service.recipientFor(staff, customerId);
    const rowsBefore = await rowCounts();
    await expect(service.sendToCustomer(staff, recipient, { text: '画像つき', image: png })).rejects.toThrow(
      'connection terminated',
    );
    await expect(service.sendBulk(staff, { text: '一斉', image: png })).rejects.toThrow('connection terminated');
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await rowCounts()).toEqual(rowsBefore);
    // The same store keeps what a successful send stored: the image and its preview.
    const kept = await media.saveImage(png);
    expect(kept.name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect((await fs.readdir(dir)).sort()).toEqual([kept.name, kept.name.replace('.png', '-preview.jpg')].sort());
  });
});
