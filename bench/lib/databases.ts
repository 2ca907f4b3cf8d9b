/**
 * Where a benchmark's data lives: an embedded PGlite folder (what `npm start` uses by default) or a throwaway
 * PostgreSQL cluster from scripts/lib/postgres.mjs. The benchmark fills it, the server process then opens it
 * through DATA_DIR or DATABASE_URL, exactly as in production.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { ensureInitialData } from '../../server/db/seed';
import { onCleanup } from './cleanup';
import { processTreeCpuMs } from './cpu';

export type Engine = 'pglite' | 'postgres';

export interface BenchDatabase {
  engine: Engine;
  /** A folder of the benchmark's own: the PGlite database (db/) and the server's DATA_DIR. */
  dataDir: string;
  /** What the server process needs to open this database. */
  serverEnv: Record<string, string>;
  /** Opens the database from the benchmark process (PGlite: only while no server process holds it). */
  open(): Promise<DatabaseHandle>;
  /** PostgreSQL: CPU milliseconds used so far by the cluster (postmaster and backends). */
  cpuMs?: () => number | undefined;
  /** Drops everything: the cluster or the folder. */
  dispose(): void;
}

const root = path.resolve(import.meta.dirname, '..', '..');

interface PostgresLib {
  startThrowawayPostgres(options?: {
    log?: (line: string) => void;
  }): Promise<{ url: string; dataDir: string; stop(): void }>;
}

export async function createBenchDatabase(engine: Engine, log: (line: string) => void): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `salon-bench-${engine}-`));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') {
    const forget = onCleanup(removeDir);
    const dbDir = path.join(dataDir, 'db');
    return {
      engine,
      dataDir,
      serverEnv: { DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir: dbDir }),
      dispose: () => {
        forget();
        removeDir();
      },
    };
  }
  const lib = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'postgres.mjs')).href)) as PostgresLib;
  const cluster = await lib.startThrowawayPostgres({ log });
  const dispose = () => {
    cluster.stop();
    removeDir();
  };
  const forget = onCleanup(dispose);
  return {
    engine,
    dataDir,
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: cluster.url },
    open: () => openDatabase({ databaseUrl: cluster.url }),
    cpuMs: () =>
      processTreeCpuMs(Number(fs.readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])),
    dispose: () => {
      forget();
      dispose();
    },
  };
}

/** Migrates and creates the salon and its superuser, as the server's first start would. */
export async function prepareSchema(
  handle: DatabaseHandle,
  input: { dataDir: string; adminPassword: string; timeZone: string },
) {
  await handle.migrate();
  return ensureInitialData({
    db: handle.db,
    dataDir: input.dataDir,
    timeZone: input.timeZone,
    adminUsername: 'admin',
    adminPassword: input.adminPassword,
    demoData: false,
  });
}
