import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types, type QueryOptions, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { projectRoot } from '../paths';
import { pgliteQuery } from './pglite-query';
import * as schema from './schema';

/** One type for both engines: repositories never know which one they run on. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A repository function accepts the database or an open transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL only: for connections that must outlive the pool's (the live-update LISTEN connection). */
  connectionString?: string;
  migrate(): Promise<void>;
  /**
   * Runs first-start work (the salon, the superuser, demo data) while no other instance does: two instances
   * starting at once on an empty PostgreSQL would otherwise both create the superuser, and one would crash.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  /**
   * PGlite in a data directory only: a consistent copy of the whole database as a gzipped tarball, taken while
   * the app runs (what `npm run backup` receives; PGlite.create's `loadDataDir` opens it again).
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

/**
 * PGlite in `dataDir` (or in memory when `dataDir` is omitted), PostgreSQL when `databaseUrl` is set. PGlite only:
 * `loadDataDir` starts from a copy taken by `dumpDataDir` instead of an empty cluster (the test suite's migrated
 * template, tests/helpers/database-template.ts: much quicker than PGlite's initdb).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir, options.loadDataDir);
}

/**
 * The extensions every PGlite open must pass (a database that uses one cannot be opened without it): btree_gist for
 * the exclusion constraints on reservations, pg_trgm for the customer search's indexes (migration 0017).
 */
export const PGLITE_EXTENSIONS = { btree_gist, pg_trgm };

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  if (dataDir) await fs.mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, {
    extensions: PGLITE_EXTENSIONS,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const db = drizzlePglite({ client: withDrizzleParsersOnce(client), schema });
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    // One process owns a PGlite data directory: there is nobody to wait for.
    withStartupLock: (work) => work(),
    dumpDataDir: dataDir
      ? async () => {
          // The checkpoint only makes the copy quicker to open (less log to replay). Holding PGlite's
          // transaction lock takes the copy between two of the app's transactions, never in the middle of one.
          await client.exec('CHECKPOINT');
          return client._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
        }
      : undefined,
    close: () => client.close(),
  };
}

/**
 * The type parsers Drizzle's PGlite driver passes with every query (drizzle-orm/pglite/session.js): dates,
 * timestamps and intervals stay text, and Drizzle's columns parse them.
 */
const DRIZZLE_PARSERS: NonNullable<QueryOptions['parsers']> = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
    oid,
    (value: string) => value,
  ]),
);

/**
 * PGlite merges a query's `parsers` into its own ~300 for every query it answers: about 0.1 ms of CPU each,
 * measured, a tenth of a staff read on the embedded engine (docs/BENCHMARKS.md). The same parsers are put into the
 * instance's map once instead (after PGlite.create has added its array types, which it does only then), and the
 * client Drizzle sees drops them from each query: the rows Drizzle gets are the same. Its queries take PGlite's
 * one-call path (server/db/pglite-query.ts).
 */
export function withDrizzleParsersOnce(client: PGlite): PGlite {
  Object.assign(client.parsers, DRIZZLE_PARSERS);
  const withoutParsers = (options?: QueryOptions) => (options?.parsers ? { ...options, parsers: undefined } : options);
  const queryWithout =
    (tx: PgliteTransaction | null) =>
    <T>(query: string, params?: unknown[], options?: QueryOptions) =>
      pgliteQuery<T>(client, tx, query, params, withoutParsers(options));
  const transaction = <T>(callback: (tx: PgliteTransaction) => Promise<T>) =>
    client.transaction((tx) => callback(overriding(tx, { query: queryWithout(tx) })));
  return overriding(client, { query: queryWithout(null), transaction });
}

/** `target` with some methods replaced; every other one still runs on `target` itself (PGlite has private fields). */
function overriding<T extends object>(target: T, methods: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(methods, property)) return methods[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

async function openPostgres(databaseUrl: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client that loses its server (restart, failover) emits here; without a listener it would crash
  // the process. The pool replaces it on the next checkout.
  pool.on('error', () => {});
  // The pool listens for errors only on idle clients. A checked-out client whose server goes away between two
  // queries (inside a transaction, say) emits 'error' with nobody listening, which would crash the process on a
  // database restart. Its next query fails instead, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    engine: 'postgres',
    connectionString: databaseUrl,
    migrate: () => migratePostgresLocked(pool),
    withStartupLock: (work) => withAdvisoryLock(pool, STARTUP_LOCK, work),
    close: () => pool.end(),
  };
}

const STARTUP_LOCK = 7261002;

/** A session-level advisory lock held on one pooled connection while `work` runs (on any connections). */
async function withAdvisoryLock<T>(pool: pg.Pool, key: number, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}

/** Several instances may start at once on one PostgreSQL: one migrates while the others wait. */
async function migratePostgresLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(7261001)');
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(7261001)');
    }
  } finally {
    client.release();
  }
}

/** The SQLSTATE of a database error, whichever engine and whatever wrapping Drizzle added. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The database could not be reached or went away mid-query (restart, failover, connection limit): worth a
 * retry, so the API answers 503 rather than 500. Walks the `cause` chain as sqlState does (Drizzle wraps errors).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      // Class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections).
      if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
      if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
    }
    const message = (current as { message?: unknown }).message;
    // node-postgres reports a socket that closed under a query, or a pool that could not connect in time, by message only.
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export const SQLSTATE = {
  uniqueViolation: '23505',
  exclusionViolation: '23P01',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
} as const;
