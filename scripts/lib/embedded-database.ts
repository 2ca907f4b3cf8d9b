// What the operator's commands (backup, restore, migrate-to-postgres) share: where the embedded database is,
// whether a server has it open, and how to open a copy of it.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../../server/db/client';
import { backupSocketPath, serverAnswers, socketPathTooLong } from '../../server/features/health/backup-channel';

/** A refusal or failure the operator can act on: printed as is, without a stack trace. */
export class OperatorError extends Error {}

export interface DataDirPaths {
  dataDir: string;
  /** The embedded database (PGlite's data directory). */
  dbDir: string;
  socketPath: string;
}

/** DATA_DIR as the server reads it (default ./data, relative to where npm runs: the project folder). */
export function dataDirPaths(env: NodeJS.ProcessEnv = process.env): DataDirPaths {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return { dataDir, dbDir: path.join(dataDir, 'db'), socketPath: backupSocketPath(dataDir) };
}

/** Set DATABASE_URL means the server uses PostgreSQL, whose own tools do this job. */
export function refuseWhenPostgres(what: string, env: NodeJS.ProcessEnv = process.env) {
  if (env.DATABASE_URL?.trim()) {
    throw new OperatorError(
      `DATABASE_URL is set: the server uses PostgreSQL, not the embedded database. ${what} (see docs/OPERATIONS.md).`,
    );
  }
}

export function hasDatabase(dbDir: string): boolean {
  return fs.existsSync(path.join(dbDir, 'PG_VERSION'));
}

/**
 * Where the server is: 'running' (it answers on its backup socket), 'stopped', or 'unclean': nothing answers
 * but the database is marked open (PGlite keeps postmaster.pid while open and removes it on a clean close), so a
 * server without a reachable socket may have it open, or one was killed. PGlite does not lock its folder, so a
 * second process must never open it while a server might: 'unclean' is treated as running unless the operator
 * says otherwise (--force).
 */
export async function serverState(paths: DataDirPaths): Promise<'running' | 'stopped' | 'unclean'> {
  if (await serverAnswers(paths.socketPath)) return 'running';
  return fs.existsSync(path.join(paths.dbDir, 'postmaster.pid')) ? 'unclean' : 'stopped';
}

export function uncleanMessage(paths: DataDirPaths): string {
  const why = socketPathTooLong(paths.socketPath)
    ? `DATA_DIR is too long a path for the server's backup socket, so a running server cannot be detected`
    : `no server answers on ${paths.socketPath}`;
  return (
    `The database in ${paths.dbDir} is marked as open (postmaster.pid), but ${why}. ` +
    `Either a server still has it open (stop it first), or the last one was killed without shutting down ` +
    `(start and stop the server once, or run this command again with --force if you are sure that no server uses this DATA_DIR).`
  );
}

/** Opens a PGlite database: the folder's own, or a folder filled from a backup tarball (`loadDataDir`). */
export function openPglite(dbDir: string | undefined, loadDataDir?: Blob) {
  return PGlite.create(dbDir, { extensions: PGLITE_EXTENSIONS, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** The application's tables (schema public), sorted by name. */
export async function publicTables(
  query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>,
): Promise<string[]> {
  const { rows } = await query(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((row) => String(row.table_name));
}

/** `"name"`, for table and column names read from the catalog. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Row counts of every application table, to print what a backup or copy holds. */
export async function rowCounts(pg: PGlite): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await publicTables((sql) => pg.query(sql))) {
    const { rows } = await pg.query<{ count: number }>(`select count(*)::int as count from ${ident(table)}`);
    counts[table] = rows[0]!.count;
  }
  return counts;
}

export function describeCounts(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return `${Object.keys(counts).length} tables, ${total} rows`;
}

/** `yyyyMMdd-HHmmss` in local time, for file names. */
export function timestamp(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** Runs a command's main: an OperatorError prints its message and exits 1; anything else prints the stack. */
export function runCommand(main: () => Promise<void>) {
  // A backup or a restored database holds every customer's data: closed to other users, as the server keeps DATA_DIR
  // (server/data-dir.ts). PGlite's own files are tightened by the server's next start.
  process.umask(0o077);
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof OperatorError) console.error(`\n${error.message}`);
      else console.error(error);
      process.exit(1);
    },
  );
}
