// npm run migrate-to-postgres -- postgres://user:password@host:5432/salon [--force]
// Moves a salon from the embedded database (DATA_DIR/db) to PostgreSQL: migrates an empty PostgreSQL database to
// this version's schema and copies every table's rows into it in one transaction (all or nothing), then sets
// every sequence so that new ids continue after the copied ones. The embedded database is left as it was.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import {
  dataDirPaths,
  describeCounts,
  hasDatabase,
  ident,
  openPglite,
  OperatorError,
  publicTables,
  rowCounts,
  runCommand,
  serverState,
  uncleanMessage,
} from './lib/embedded-database';

/** Rows per round trip: large enough to be quick, small enough that a big table never sits in memory whole. */
const BATCH_ROWS = 1_000;

const args = process.argv.slice(2);
const force = args.includes('--force');
const targetUrl = args.find((arg) => !arg.startsWith('--'));

interface Column {
  name: string;
  /** The column's full SQL type (format_type), for casting the copied text back. */
  type: string;
  identityAlways: boolean;
}

runCommand(async () => {
  if (!targetUrl || !/^postgres(ql)?:\/\//.test(targetUrl)) {
    throw new OperatorError(
      'Usage: npm run migrate-to-postgres -- postgres://user:password@host:5432/database (an empty database)',
    );
  }
  const paths = dataDirPaths();
  if (!hasDatabase(paths.dbDir))
    throw new OperatorError(`No embedded database in ${paths.dbDir}. Is DATA_DIR the server's?`);
  const state = await serverState(paths);
  if (state === 'running') {
    throw new OperatorError(
      `The server is running on ${paths.dataDir}: stop it first, or bookings made during the copy would be lost. Nothing was changed.`,
    );
  }
  if (state === 'unclean' && !force) throw new OperatorError(uncleanMessage(paths));

  // Both sides at this version's schema, as the server's start would leave them.
  console.log(
    `Migrating the embedded database (${paths.dbDir}) and the PostgreSQL database to this version's schema...`,
  );
  await migrate({ dataDir: paths.dbDir });
  await migrate({ databaseUrl: targetUrl }).catch((error: unknown) => {
    throw new OperatorError(
      `Could not prepare the PostgreSQL database: ${error instanceof Error ? error.message : String(error)}`,
    );
  });

  const source = await openPglite(paths.dbDir);
  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  try {
    const copied = await copyEverything(source, target);
    const sourceCounts = await rowCounts(source);
    const targetCounts: Record<string, number> = {};
    for (const table of Object.keys(sourceCounts)) {
      const { rows } = await target.query<{ count: number }>(`select count(*)::int as count from ${ident(table)}`);
      targetCounts[table] = rows[0]!.count;
    }
    const differing = Object.keys(sourceCounts).filter((table) => sourceCounts[table] !== targetCounts[table]);
    if (differing.length > 0) throw new Error(`row counts differ after the copy: ${differing.join(', ')}`);
    console.log(`Copied ${describeCounts(sourceCounts)} in ${copied} batches into PostgreSQL.`);
    console.log(
      "Next: set DATABASE_URL to that database in the server's environment and start it. Keep DATA_DIR: it still holds",
    );
    console.log(
      'the signing secret (jwt-secret) and the uploaded images (uploads/); the embedded database in it is no longer used.',
    );
  } finally {
    await target.end();
    await source.close();
  }
});

async function migrate(options: { dataDir?: string; databaseUrl?: string }) {
  const database = await openDatabase(options);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}

async function copyEverything(source: PGlite, target: pg.Client): Promise<number> {
  const sourceTables = await publicTables((sql) => source.query(sql));
  const targetTables = await publicTables((sql) => target.query(sql));
  if (sourceTables.join() !== targetTables.join()) {
    throw new OperatorError(
      `The two databases have different tables after migrating (embedded: ${sourceTables.join(', ')}; PostgreSQL: ${targetTables.join(', ')}).`,
    );
  }
  for (const table of targetTables) {
    const { rows } = await target.query<{ some: boolean }>(`select exists (select 1 from ${ident(table)}) as some`);
    if (rows[0]!.some) {
      throw new OperatorError(
        `The PostgreSQL database is not empty (table ${table} has rows). Give it a new, empty database (createdb): this command never merges into or overwrites data. Nothing was changed.`,
      );
    }
  }

  let batches = 0;
  await target.query('begin');
  try {
    for (const table of await insertOrder(target, targetTables)) {
      const columns = await columnsOf(target, table);
      const sourceColumns = (await columnsOf(source, table)).map((column) => column.name);
      if (columns.map((column) => column.name).join() !== sourceColumns.join()) {
        throw new OperatorError(`Table ${table} has different columns in the two databases after migrating.`);
      }
      // An exact copy: no trigger may derive rows or values while copying (migration 0009's trigger on
      // opening_slots would otherwise write schedule_exceptions rows that are copied themselves next).
      await target.query(`alter table ${ident(table)} disable trigger user`);
      batches += await copyTable(source, target, table, columns);
      await target.query(`alter table ${ident(table)} enable trigger user`);
    }
    await setSequences(source, target);
    await target.query('commit');
  } catch (error) {
    await target.query('rollback').catch(() => {});
    throw error;
  }
  return batches;
}

/**
 * Each row travels as a JSON array of its columns' text forms and is cast back with the column's own type: every
 * PostgreSQL type reads its text form back exactly (time zones, numerics, JSON values including a JSON null,
 * which a plain to_jsonb round trip would turn into SQL NULL).
 */
async function copyTable(source: PGlite, target: pg.Client, table: string, columns: Column[]): Promise<number> {
  const names = columns.map((column) => ident(column.name)).join(', ');
  const texts = columns.map((column) => `${ident(column.name)}::text`).join(', ');
  const casts = columns.map((column, index) => `(r->>${index})::${column.type}`).join(', ');
  const overriding = columns.some((column) => column.identityAlways) ? ' overriding system value' : '';
  const insert = `insert into ${ident(table)} (${names})${overriding} select ${casts} from jsonb_array_elements($1::jsonb) as r`;
  let batches = 0;
  await source.transaction(async (tx) => {
    await tx.query(
      `declare rows_out no scroll cursor for select json_build_array(${texts})::text as r from ${ident(table)}`,
    );
    for (;;) {
      const { rows } = await tx.query<{ r: string }>(`fetch ${BATCH_ROWS} from rows_out`);
      if (rows.length === 0) break;
      await target.query(insert, [`[${rows.map((row) => row.r).join(',')}]`]);
      batches += 1;
    }
    await tx.query('close rows_out');
  });
  return batches;
}

type Queryable = Pick<PGlite, 'query'> | pg.Client;
async function rowsOf<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await (db as pg.Client).query(sql, params);
  return result.rows as T[];
}

async function columnsOf(db: Queryable, table: string): Promise<Column[]> {
  const rows = await rowsOf<{ name: string; type: string; identity: string }>(
    db,
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attidentity as identity
       from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`,
    [`public.${ident(table)}`],
  );
  return rows.map((row) => ({ name: row.name, type: row.type, identityAlways: row.identity === 'a' }));
}

/** Parents before children, so that every foreign key holds as each row arrives (they are not deferrable). */
async function insertOrder(target: pg.Client, tables: string[]): Promise<string[]> {
  const edges = await rowsOf<{ child: string; parent: string }>(
    target,
    `select child.relname as child, parent.relname as parent
       from pg_constraint c
       join pg_class child on child.oid = c.conrelid
       join pg_class parent on parent.oid = c.confrelid
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and c.conrelid <> c.confrelid`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    if (visiting.has(table)) throw new Error(`foreign keys form a cycle through ${table}`);
    visiting.add(table);
    for (const edge of edges) if (edge.child === table) visit(edge.parent);
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/**
 * The migrated database's sequences start at 1: each is set to where the embedded one stood, and never below the
 * largest id copied into a column it feeds, so the next insert gets a fresh id.
 */
async function setSequences(source: PGlite, target: pg.Client) {
  const values = new Map<string, bigint>();
  const raise = (name: string, value: string | null) => {
    if (value === null) return;
    const current = values.get(name);
    if (current === undefined || BigInt(value) > current) values.set(name, BigInt(value));
  };
  const sourceSequences = await rowsOf<{ name: string; value: string | null }>(
    source,
    `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
  );
  for (const row of sourceSequences) raise(row.name, row.value);
  const owned = await rowsOf<{ sequence: string; table: string; column: string }>(
    target,
    `select s.relname as sequence, t.relname as table, a.attname as column
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
       join pg_class t on t.oid = d.refobjid
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
        and s.relnamespace = 'public'::regnamespace`,
  );
  for (const row of owned) {
    const [max] = await rowsOf<{ value: string | null }>(
      target,
      `select max(${ident(row.column)})::text as value from ${ident(row.table)}`,
    );
    raise(row.sequence, max!.value);
  }
  const targetSequences = new Set(
    (
      await rowsOf<{ name: string }>(
        target,
        `select sequencename as name from pg_sequences where schemaname = 'public'`,
      )
    ).map((row) => row.name),
  );
  for (const [name, value] of values) {
    if (!targetSequences.has(name)) continue;
    await target.query('select setval($1::regclass, $2::bigint, true)', [`public.${ident(name)}`, value.toString()]);
  }
}
