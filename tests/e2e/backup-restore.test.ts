/**
 * The operator's commands on the real product (issue 14): `npm run backup` while the server runs, a lost
 * database, `npm run restore`, and `npm run migrate-to-postgres`. Every table is compared row for row (count and a
 * digest of every row's text) between the database before and after each step.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../scripts/lib/embedded-database';
import { loginWithEmulator, request, type ApiInit } from '../helpers/app';
import { copyMigratedCluster, startServerProcess, type ServerProcess } from '../helpers/server-process';

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_PASSWORD = 'backup-admin-password';

/** `npm run <script> -- <args>` as an operator types it, in the server's environment. */
function npmRun(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|DATA_DIR)$/.test(key)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...clean, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

type Digest = Record<string, { rows: number; md5: string }>;

/** Every application table: its row count and an md5 of all its rows' text, in a fixed order and time zone. */
async function digest(query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>): Promise<Digest> {
  await query(`set timezone to 'UTC'`);
  const { rows: tables } = await query(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const result: Digest = {};
  for (const { table_name: table } of tables) {
    // Overwritten by every health check (migration 0021): a scratch row, not data a backup must keep as it was.
    if (table === 'health_probe') continue;
    const { rows } = await query(
      `select count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5 from "${String(table)}" t`,
    );
    result[String(table)] = { rows: Number(rows[0]!.rows), md5: String(rows[0]!.md5) };
  }
  return result;
}

async function digestPglite(dbDir: string): Promise<Digest> {
  const db = await openPglite(dbDir);
  try {
    return await digest((sql) => db.query(sql));
  } finally {
    await db.close();
  }
}

async function digestPostgres(url: string): Promise<Digest> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await digest((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}

/** A local date `days` from today, far enough ahead that no day-before reminder is queued while the test runs. */
function dayAhead(days: number): string {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(date);
}

describe('npm run backup, restore and migrate-to-postgres on the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-backup-'));
  const dbDir = path.join(dataDir, 'db');
  const backupFile = path.join(dataDir, 'backups', 'while-running.tar.gz');
  const env = { DATA_DIR: dataDir, ADMIN_PASSWORD, DEMO_DATA: 'false', SKIP_BUILD: 'true' };
  const adminUrl = process.env.TEST_POSTGRES_URL;
  const targetName = `e2e_migrate_${process.pid}`;
  let server: ServerProcess | undefined;
  let admin: string;
  let customerId: number;
  let firstServiceId: number;
  let marker: string;
  let beforeLoss: Digest;

  const api = (pathname: string, init: ApiInit = {}) => request(server!.url, pathname, init);
  const targetUrl = () => {
    const url = new URL(adminUrl!);
    url.pathname = `/${targetName}`;
    return url.toString();
  };
  async function withAdminClient(work: (client: pg.Client) => Promise<unknown>) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set: run through `npm test`, which starts PostgreSQL.');
    await copyMigratedCluster(dataDir);
    server = await startServerProcess(env);
    const login = await api('/api/token/', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    admin = String(login.body.access);
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl) await withAdminClient((client) => client.query(`drop database if exists ${targetName} with (force)`));
  });

  it('backs up the running server with every committed change, including the last one before the backup', async () => {
    // Data made through the API, in most tables: a service, a staff member, opening slots, a reservation with a
    // new customer (with an Idempotency-Key), a customer who logged in with LINE, refresh tokens.
    const service = await api('/api/services/', {
      method: 'POST',
      token: admin,
      json: { name: 'ジェルネイル', price: 6000, duration_minutes: 60 },
    });
    expect(service.status).toBe(201);
    const staff = await api('/api/admin/users/', {
      method: 'POST',
      token: admin,
      json: { username: 'misaki', full_name: '佐藤 美咲', email: 'misaki@example.com', password: 'misaki-password-1' },
    });
    expect(staff.status).toBe(201);
    const day = dayAhead(20);
    const slots = await api('/api/admin/available-slots/', {
      method: 'POST',
      token: admin,
      json: { date: day, times: ['10:00', '10:30', '11:00'] },
    });
    expect(slots.status).toBe(200);
    const booking = await api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token: admin,
      headers: { 'idempotency-key': 'backup-e2e-0001' },
      json: {
        name: '山田 花子',
        phone_number: '0312345678',
        service_id: service.body.id,
        start_time: `${day}T10:00:00`,
      },
    });
    expect(booking.status).toBe(201);
    customerId = Number(booking.body.customer_id);
    firstServiceId = Number(service.body.id);
    await loginWithEmulator({ url: server!.url, api }, 'backup-line-user');

    // The write right before the backup: committed, and so it must be in the copy.
    marker = `backup-marker-${Date.now()}`;
    const memo = await api(`/api/admin/customers/${customerId}/`, {
      method: 'PATCH',
      token: admin,
      json: { notes: marker },
    });
    expect(memo.status).toBe(200);

    const backup = await npmRun('backup', [backupFile], env);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('The server is running');
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    // The server went on serving while and after it made the copy.
    expect((await api('/api/health/')).status).toBe(200);
  });

  it('refuses to restore while the server runs, and changes nothing', async () => {
    const restore = await npmRun('restore', [backupFile], env);
    expect(restore.code).toBe(1);
    expect(restore.output).toContain('stop it first');
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('db'))).toEqual(['db']);
  });

  it('restores every row of every table after the database is lost, and the server starts on it', async () => {
    await server!.stop();
    server = undefined;
    beforeLoss = await digestPglite(dbDir);
    for (const table of [
      'salons',
      'staff_users',
      'services',
      'customers',
      'opening_slots',
      'reservations',
      'refresh_tokens',
      'idempotency_keys',
      'dev_line_users',
    ]) {
      expect(beforeLoss[table]?.rows, table).toBeGreaterThan(0);
    }

    fs.rmSync(dbDir, { recursive: true, force: true });
    const restore = await npmRun('restore', [backupFile], env);
    expect(restore.code, restore.output).toBe(0);
    expect(await digestPglite(dbDir)).toEqual(beforeLoss);

    server = await startServerProcess(env);
    const login = await api('/api/token/', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const customer = await api(`/api/admin/customers/${customerId}/`, { token: String(login.body.access) });
    expect(customer.status).toBe(200);
    expect(customer.body.notes).toBe(marker);
  });

  it('backs up a stopped server by opening the database itself, and keeps the replaced database aside on restore', async () => {
    await server!.stop();
    server = undefined;
    const stopped = await digestPglite(dbDir);
    const offlineFile = path.join(dataDir, 'offline.tar.gz');
    const backup = await npmRun('backup', [offlineFile], env);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('No server is running');

    const restore = await npmRun('restore', [offlineFile], env);
    expect(restore.code, restore.output).toBe(0);
    const aside = fs.readdirSync(dataDir).filter((name) => name.startsWith('db.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(await digestPglite(dbDir)).toEqual(stopped);
    expect(await digestPglite(path.join(dataDir, aside[0]!))).toEqual(stopped);
  });

  it('migrate-to-postgres copies every row of every table into a fresh PostgreSQL database, and the server runs on it', async () => {
    await withAdminClient(async (client) => {
      await client.query(`drop database if exists ${targetName} with (force)`);
      await client.query(`create database ${targetName}`);
    });
    const source = await digestPglite(dbDir);
    const migrate = await npmRun('migrate-to-postgres', [targetUrl()], env);
    expect(migrate.code, migrate.output).toBe(0);
    expect(await digestPostgres(targetUrl())).toEqual(source);
    // The embedded database is left as it was.
    expect(await digestPglite(dbDir)).toEqual(source);

    // A second run never writes into a database that has data.
    const again = await npmRun('migrate-to-postgres', [targetUrl()], env);
    expect(again.code).toBe(1);
    expect(again.output).toContain('not empty');

    server = await startServerProcess({ ...env, DATABASE_URL: targetUrl() });
    expect(server.output()).toContain('database: postgres');
    const login = await api('/api/token/', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const token = String(login.body.access);
    expect((await api(`/api/admin/customers/${customerId}/`, { token })).body.notes).toBe(marker);
    // The sequences continue after the copied ids: new rows get fresh ids instead of colliding.
    const service = await api('/api/services/', {
      method: 'POST',
      token,
      json: { name: 'ハンドケア', price: 3000, duration_minutes: 30 },
    });
    expect(service.status).toBe(201);
    expect(Number(service.body.id)).toBeGreaterThan(firstServiceId);
  });
});
