/**
 * EXPLAIN ANALYZE of the queries behind the read endpoints, exactly as the server sends them: the repository
 * functions run against a Drizzle instance that records each statement and its parameters, which are then
 * explained on the same database. Shows which index answers each query and how long it takes.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database, DatabaseHandle } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { listBusyIntervals } from '../../server/features/booking/booking.repository';
import { listCustomers } from '../../server/features/customers/customers.repository';
import { loadWorkingCells } from '../../server/scheduling/working-time';
import { listReservations } from '../../server/features/reservations/reservations.repository';
import { addDaysToDate, localDateTimeToInstant, monthRange } from '../../src/shared/time';
import type { Dataset } from './dataset';

export interface ExplainedQuery {
  name: string;
  executionMs: number;
  /** Indexes the plan reads. */
  indexes: string[];
  /** Tables the plan reads in full. */
  seqScans: string[];
  plan: string;
}

type Captured = { query: string; params: unknown[] };
type QueryClient = { query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

function recordingDb(handle: DatabaseHandle, captured: Captured[]): { db: Database; client: QueryClient } {
  const logger = { logQuery: (query: string, params: unknown[]) => void captured.push({ query, params }) };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const db =
    handle.engine === 'postgres'
      ? drizzlePg({ client: client as pg.Pool, schema, logger })
      : drizzlePglite({ client: client as PGlite, schema, logger });
  return { db: db as unknown as Database, client: client as QueryClient };
}

export async function explainReads(handle: DatabaseHandle, ds: Dataset): Promise<ExplainedQuery[]> {
  const captured: Captured[] = [];
  const { db, client } = recordingDb(handle, captured);
  const day = addDaysToDate(ds.today, 7);
  const startOf = (date: string) => localDateTimeToInstant(`${date}T00:00:00`, ds.timeZone);
  const [year, month] = addDaysToDate(ds.today, 31).split('-').map(Number) as [number, number];
  const { first, last } = monthRange(year, month);

  const cases: [string, () => Promise<unknown>][] = [
    // Who works when: templates, exceptions, the day's opening slots and holidays (four statements).
    [
      'availability: working time of a day',
      () =>
        loadWorkingCells(db, { salonId: ds.salonId, from: day, to: day, staffIds: ds.staffIds, closedWeekdays: [] }),
    ],
    [
      'availability: busy times of a day',
      () => listBusyIntervals(db, ds.salonId, startOf(day), startOf(addDaysToDate(day, 1))),
    ],
    [
      'bookable-dates: busy times of a month',
      () => listBusyIntervals(db, ds.salonId, startOf(first), startOf(addDaysToDate(last, 1))),
    ],
    [
      'day list: one day',
      () =>
        listReservations(db, {
          salonId: ds.salonId,
          from: startOf(day),
          to: startOf(addDaysToDate(day, 1)),
          limit: 500,
          offset: 0,
        }),
    ],
    // The bench's three kinds of search (bench/lib/scenarios.ts): a surname, a full name, a reading.
    ['customer search: surname', () => listCustomers(db, { salonId: ds.salonId, name: '佐藤', limit: 100, offset: 0 })],
    [
      'customer search: full name',
      () => listCustomers(db, { salonId: ds.salonId, name: '佐藤 花子', limit: 100, offset: 0 }),
    ],
    [
      'customer search: reading',
      () => listCustomers(db, { salonId: ds.salonId, name: 'サトウ', limit: 100, offset: 0 }),
    ],
  ];

  const explained: ExplainedQuery[] = [];
  for (const [name, run] of cases) {
    captured.length = 0;
    await run();
    const statements = [...captured];
    for (const [index, statement] of statements.entries()) {
      // The second run is measured: the first may read from disk what the server would find in its cache.
      await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.query}`, statement.params);
      const result = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.query}`, statement.params);
      const plan = result.rows.map((row) => String(Object.values(row)[0])).join('\n');
      explained.push({
        name: statements.length > 1 ? `${name} (${index + 1}/${statements.length})` : name,
        executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN),
        indexes: [
          ...new Set(
            [
              ...plan.matchAll(/(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/g),
            ].map((m) => m[1]!),
          ),
        ],
        seqScans: [...new Set([...plan.matchAll(/Seq Scan on (\S+)/g)].map((m) => m[1]!))],
        plan,
      });
    }
  }
  return explained;
}
