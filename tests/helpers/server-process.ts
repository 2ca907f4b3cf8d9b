import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder, openDatabase } from '../../server/db/client';
import { freePort } from './free-port.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const pgliteVersion = (
  JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** Changes with PGlite's version and with any migration's text: a template made before either is not used. */
function migratedClusterKey(): string {
  const hash = createHash('sha256').update(pgliteVersion);
  for (const name of fs
    .readdirSync(migrationsFolder)
    .filter((file) => file.endsWith('.sql'))
    .sort())
    hash.update(name).update(fs.readFileSync(path.join(migrationsFolder, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * An embedded cluster with every migration applied and no row of the product's: what a first start leaves before it
 * writes its first-start data. Made once per PGlite version and migration set on this machine (PGlite's initdb and
 * the migrations: 3–5 s of CPU, twice that on a loaded CI machine) and kept in the temp folder; it is built aside
 * and renamed into place, so a reader never sees half of one.
 */
async function migratedClusterTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `salon-e2e-migrated-pglite-${migratedClusterKey()}`);
  if (fs.existsSync(path.join(template, 'PG_VERSION'))) return template;
  const building = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-e2e-initdb-'));
  const database = await openDatabase({ dataDir: building });
  await database.migrate();
  await database.close();
  try {
    fs.renameSync(building, template);
  } catch {
    // Another run made it first: theirs is used. (A stale folder in the way leaves no template: servers run initdb.)
    fs.rmSync(building, { recursive: true, force: true });
  }
  return template;
}

/**
 * Puts a copy of the migrated cluster where the server keeps its embedded database (DATA_DIR/db), for a DATA_DIR the
 * caller made and the server has not started on yet. Without a template (it could not be made) the server runs
 * initdb and the migrations itself, as usual.
 */
export async function copyMigratedCluster(dataDir: string): Promise<void> {
  const template = await migratedClusterTemplate();
  if (fs.existsSync(path.join(template, 'PG_VERSION')))
    fs.cpSync(template, path.join(dataDir, 'db'), { recursive: true });
}

/**
 * Runs the product exactly as a user does (`npm start` = node scripts/start.mjs) in a fresh DATA_DIR on a free
 * port, and waits until it answers. The environment is the caller's `env` on top of a clean one: no
 * DATABASE_URL or LINE variables leak in from the test runner.
 *
 * A fresh DATA_DIR on the embedded database gets a copy of a migrated cluster (migratedClusterTemplate): the server
 * still checks the migrations (all applied) and writes its first-start data (salon, superuser, password file) as on
 * a first start; PGlite's initdb and the migrations, the slowest part of a start, run once per machine instead of
 * once per server. `initdb: true` keeps a start from a really empty folder (start.test.ts, the first start a user
 * makes); the integration suites migrate from empty too (tests/helpers/database-template.ts).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  options: { initdb?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'salon-e2e-'));
  if (!env.DATA_DIR && !env.DATABASE_URL && !options.initdb) await copyMigratedCluster(dataDir);
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(DATABASE_URL|LINE_|SMTP_|ADMIN_|JWT_SECRET|DEMO_DATA|PUBLIC_URL)/.test(key),
    ),
  );
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...clean, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    // The health check, not /api/config/: that one fills the read cache with the salons row, which a world seeded
    // into the database right after the start (tests/helpers/process-world.ts) would then not be seen over for 5 s.
    const ok = await fetch(`${url}/api/health/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${output}`);
    }
    // A refused connection costs next to nothing: ask often, so that no start waits long after it is ready.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url,
    dataDir,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
