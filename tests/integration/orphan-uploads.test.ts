import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcasts, lineMessages } from '../../server/db/schema';
import {
  sweepOrphanUploads,
  TEMPORARY_MIN_AGE_MS,
  UNREFERENCED_MIN_AGE_MS,
} from '../../server/integrations/storage/orphan-uploads';
import { startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer } from '../helpers/factories';

const base = () => randomBytes(16).toString('hex');
const MINUTE = 60 * 1000;

describe(`sweeping upload files a crash left behind on ${testEngine}`, () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://salon.example.jp' } });
    dir = path.join(t.env.dataDir, 'sweep');
    await fs.mkdir(dir);
  });
  afterAll(() => t?.close());

  /** Writes `name` into the upload directory, last modified `ageMs` ago. */
  async function file(name: string, ageMs: number) {
    const filePath = path.join(dir, name);
    await fs.writeFile(filePath, 'x');
    const when = new Date(Date.now() - ageMs);
    await fs.utimes(filePath, when, when);
    return name;
  }

  it('removes old temporary files and old unreferenced images, and keeps everything a row names', async () => {
    const customer = await createCustomer(t.database.db, t.salonId, { lineUserId: `U${base()}` });
    const old = UNREFERENCED_MIN_AGE_MS + 5 * MINUTE;

    // Named by a message row written under an earlier PUBLIC_URL, and by a broadcast: kept, previews too.
    const [message, broadcast] = [base(), base()];
    await t.database.db.insert(lineMessages).values({
      salon_id: t.salonId,
      customer_id: customer.id,
      sender_type: 'customer',
      image_url: `http://old-host.example:8080/media/${message}.png`,
    });
    await t.database.db
      .insert(broadcasts)
      .values({ salon_id: t.salonId, image_url: `https://salon.example.jp/media/${broadcast}.jpg` });
    const kept = [
      await file(`${message}.png`, old),
      await file(`${message}-preview.jpg`, old),
      await file(`${broadcast}.jpg`, old),
      await file(`${broadcast}-preview.jpg`, old),
    ];

    // A crash's leftovers.
    const orphan = base();
    const temporary = [
      await file(`.${base()}.jpg.${randomBytes(6).toString('hex')}.tmp`, TEMPORARY_MIN_AGE_MS + MINUTE),
      await file(`.${base()}-preview.jpg.${randomBytes(6).toString('hex')}.tmp`, TEMPORARY_MIN_AGE_MS + MINUTE),
    ];
    const unreferenced = [await file(`${orphan}.jpg`, old), await file(`${orphan}-preview.jpg`, old)];

    // Too young to be sure about (a send may still be writing or committing), or not ours at all.
    const young = [
      await file(`.${base()}.png.${randomBytes(6).toString('hex')}.tmp`, TEMPORARY_MIN_AGE_MS - MINUTE),
      await file(`${base()}.jpg`, UNREFERENCED_MIN_AGE_MS - MINUTE),
    ];
    const foreign = [await file('notes.txt', old), await file('.keep', old), await file(`.${base()}.jpg.tmp`, old)];

    const result = await sweepOrphanUploads({ dir, db: t.database.db });

    expect(result.temporary.sort()).toEqual([...temporary].sort());
    expect(result.unreferenced.sort()).toEqual([...unreferenced].sort());
    expect((await fs.readdir(dir)).sort()).toEqual([...kept, ...young, ...foreign].sort());
  });

  it('does nothing when there is no upload directory yet', async () => {
    expect(await sweepOrphanUploads({ dir: path.join(dir, 'missing'), db: t.database.db })).toEqual({
      temporary: [],
      unreferenced: [],
    });
  });
});
