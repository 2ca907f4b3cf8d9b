import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withDrizzleParsersOnce } from './client';

// Values of every type whose parser Drizzle overrides, and a few it does not, read as Drizzle reads them.
const EVERY_OVERRIDDEN_TYPE = sql`select
  timestamptz '2030-01-10 09:00+09' as tz, timestamp '2030-01-10 09:00' as ts, date '2030-01-10' as d,
  interval '90 minutes' as i, array[1.5::numeric] as na, array[timestamp '2030-01-10 09:00'] as tsa,
  array[timestamptz '2030-01-10 09:00+09'] as tza, array[interval '1 day'] as ia, array[date '2030-01-10'] as da,
  1.5::numeric as n, 2::int8 as big, '{"x": 1}'::jsonb as j, true as b, array[1, 2] as ints`;

describe('the PGlite client Drizzle sees (server/db/client.ts)', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  afterAll(() => client.close());

  it('answers exactly as Drizzle with its own per-query parsers, in and out of transactions', async () => {
    const plain = drizzle({ client });
    const asIs = await plain.execute(EVERY_OVERRIDDEN_TYPE);
    const asIsInTx = await plain.transaction((tx) => tx.execute(EVERY_OVERRIDDEN_TYPE));
    expect(asIs.rows[0]).toMatchObject({ tz: expect.any(String), d: '2030-01-10', big: 2, j: { x: 1 } });

    const wrapped = drizzle({ client: withDrizzleParsersOnce(client) });
    const spy = vi.spyOn(client, 'query');
    const once = await wrapped.execute(EVERY_OVERRIDDEN_TYPE);
    const inTx = await wrapped.transaction((tx) => tx.execute(EVERY_OVERRIDDEN_TYPE));
    // With an array parameter the query goes through PGlite's query() (server/db/pglite-query.ts).
    const withArray = await wrapped.execute(sql`${EVERY_OVERRIDDEN_TYPE}, ${sql.param([1, 2])}::int[] as arr`);
    expect(once.rows).toEqual(asIs.rows);
    expect(inTx.rows).toEqual(asIsInTx.rows);
    expect(withArray.rows).toEqual([{ ...asIs.rows[0], arr: [1, 2] }]);
    // The point of it: PGlite gets no parsers to merge into its own for each query.
    expect(spy).toHaveBeenCalledTimes(1);
    for (const [, , options] of spy.mock.calls) expect(options?.parsers).toBeUndefined();
    spy.mockRestore();
  });
});
