/**
 * DATA_DIR is closed to other users (issue 31: 968 of 1,164 files under it were 0666, and DATA_DIR 0755, after a
 * plain start): the server runs with umask 077 and, once the embedded database is open and migrated, takes group and
 * other permissions from the whole tree (server/data-dir.ts). Checked on the bundled server as `npm start` runs it,
 * with the umask of an ordinary shell (022), on a DATA_DIR that an earlier start left wide open, after a start that
 * stored a booking and an uploaded photo.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app';
import { bookOn, seedProcessWorld, sharedServerEnv, type ProcessWorld } from '../helpers/process-world';
import { copyMigratedCluster, startServerProcess, type ServerProcess } from '../helpers/server-process';

/** Every entry under `root` (and root itself) that group or others may read, write or enter, with its mode. */
function openEntries(root: string): string[] {
  const open: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) open.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return open;
}

/** What an earlier, careless start leaves: every folder 0755, every file 0666. */
function openUp(root: string) {
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isDirectory()) {
      fs.chmodSync(entry, 0o755);
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    } else if (stat.isFile()) fs.chmodSync(entry, 0o666);
  };
  visit(root);
}

describe('DATA_DIR file modes of the bundled server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-modes-'));
  const env = sharedServerEnv({ DATA_DIR: dataDir });
  let server: ServerProcess | undefined;
  let world: ProcessWorld;
  let previousUmask: number | undefined;

  beforeAll(async () => {
    // The servers inherit it: the umask of an ordinary login shell, which alone left DATA_DIR open.
    previousUmask = process.umask(0o022);
    await copyMigratedCluster(dataDir);
    // A first start writes the salon and the superuser; the world is then seeded while no server has the database.
    server = await startServerProcess(env);
    await server.stop();
    world = await seedProcessWorld({ dataDir: path.join(dataDir, 'db') }, env.JWT_SECRET!, { staff: 1, customers: 1 });
    fs.mkdirSync(path.join(dataDir, 'uploads', 'karte'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'backups-note.txt'), 'left by hand');
    openUp(dataDir);
    expect(openEntries(dataDir).length).toBeGreaterThan(900);
    server = await startServerProcess(env);
  });
  afterAll(async () => {
    await server?.stop();
    if (previousUmask !== undefined) process.umask(previousUmask);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no folder or file under DATA_DIR open to group or others, after a booking and an upload', async () => {
    const [customer] = world.customers;
    const booking = await bookOn(server!.url, world, customer!, world.starts[0]!);
    expect(booking.status, booking.text).toBe(201);
    const form = new FormData();
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#e91e63' } })
      .jpeg()
      .toBuffer();
    form.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'design.jpg');
    const upload = await request(server!.url, `/api/reservations/${String(booking.body.reservation_number)}/photos/`, {
      method: 'POST',
      token: customer!.token,
      form,
    });
    expect(upload.status, upload.text).toBe(201);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'karte')).length).toBe(2);

    expect(openEntries(dataDir)).toEqual([]);
    // Still so once the server has stopped (the embedded database writes its last files on the way out).
    await server!.stop();
    expect(openEntries(dataDir)).toEqual([]);
  });
});
