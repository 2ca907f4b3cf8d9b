/**
 * GET /api/health/ (issue 14): what a load balancer, systemd or an uptime monitor polls. 200 when the database
 * answers, 503 with a body when it does not; public, never rate-limited, and nothing in it an attacker could use.
 * Also the backup socket the running server opens for `npm run backup` (embedded database only).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, serverAnswers, startBackupChannel } from '../../server/features/health/backup-channel';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';

describe(`GET /api/health/ on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers 200 {status: "ok"} to anyone, uncached, and says nothing else', async () => {
    const result = await t.api('/api/health/');
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text)).toEqual({ status: 'ok' });
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('is not rate-limited: a monitor polling from one address always gets its answer', async () => {
    const statuses = await Promise.all(Array.from({ length: 150 }, () => t.api('/api/health/').then((r) => r.status)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

describe(`GET /api/health/ with the database gone, on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    // The database is already closed: stop the app and remove what close() would have.
    await t.app.close();
    fs.rmSync(t.env.dataDir, { recursive: true, force: true });
    if (testEngine === 'postgres') {
      const name = new URL(t.database.url!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('answers 503 with a Japanese message and a code, and no error text, once the database is closed', async () => {
    expect((await t.api('/api/health/')).status).toBe(200);
    await t.database.close();
    const result = await t.api('/api/health/');
    expect(result.status).toBe(503);
    expect(JSON.parse(result.text)).toEqual({
      status: 'unavailable',
      detail: SERVER_MESSAGES.serviceUnavailable,
      code: 'database_unavailable',
    });
    expect(result.headers.get('retry-after')).toBe('5');
    expect(result.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the backup socket of a running server', () => {
  const silent = { info() {}, warn() {}, error() {} };
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-socket-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const post = (socketPath: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const request = http.request({ socketPath, path: '/backup', method: 'POST', agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }));
      });
      request.on('error', reject);
      request.end();
    });

  it("is only for the server's own user (mode 0600), sends the copy, and is gone after close", async () => {
    const socketPath = path.join(dir, 'backup.sock');
    const channel = await startBackupChannel({
      socketPath,
      dump: async () => new Blob(['tarball bytes']),
      log: silent,
    });
    try {
      expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
      expect(await serverAnswers(socketPath)).toBe(true);
      const answer = await post(socketPath);
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe('tarball bytes');
    } finally {
      await channel.close();
    }
    expect(fs.existsSync(socketPath)).toBe(false);
    expect(await serverAnswers(socketPath)).toBe(false);
  });

  it('replaces a socket file left by a killed server, but refuses one that a live server answers on', async () => {
    const socketPath = path.join(dir, 'stale.sock');
    // What kill -9 leaves behind: the socket file of a process that is gone.
    const owner = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`,
    ]);
    await new Promise((resolve) => owner.stdout.once('data', resolve));
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    expect(fs.existsSync(socketPath)).toBe(true);
    expect(await serverAnswers(socketPath)).toBe(false);

    const first = await startBackupChannel({ socketPath, dump: async () => new Blob(['one']), log: silent });
    try {
      await expect(
        startBackupChannel({ socketPath, dump: async () => new Blob(['two']), log: silent }),
      ).rejects.toThrow(DataDirInUseError);
      expect((await post(socketPath)).body.toString()).toBe('one');
    } finally {
      await first.close();
    }
  });

  it('reports a failed copy as 500 and serves the next request', async () => {
    const socketPath = path.join(dir, 'failing.sock');
    let fail = true;
    const channel = await startBackupChannel({
      socketPath,
      dump: async () => {
        if (fail) throw new Error('disk full');
        return new Blob(['ok']);
      },
      log: silent,
    });
    try {
      expect((await post(socketPath)).status).toBe(500);
      fail = false;
      expect((await post(socketPath)).status).toBe(200);
    } finally {
      await channel.close();
    }
  });
});
