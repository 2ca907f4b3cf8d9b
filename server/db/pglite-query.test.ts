import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgliteQuery } from './pglite-query';

describe('PGlite in one call per statement (server/db/pglite-query.ts)', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec(`create table items (id serial primary key, name text not null unique, price int,
      starts timestamptz default '2030-01-10 09:00+09', data jsonb)`);
  }, 60_000);
  afterAll(() => client.close());

  const run = <T>(query: string, params: unknown[] = [], options = {}) =>
    pgliteQuery<T>(client, null, query, params, options);

  it('answers as PGlite query() does: rows, fields, affected rows, in both row modes, unnamed and named', async () => {
    const insert = 'insert into items (name, price, data) values ($1, $2, $3) returning *';
    const select = 'select id, name, price, starts, data, price > $1 as dear from items where price >= $1 order by id';
    for (let run = 0; run < 5; run += 1) {
      const name = `item ${run}`;
      const fast = await pgliteQuery(client, null, insert, [name, 1000 * run, '{"n": 1}']);
      const viaQuery = await client.query(insert, [`${name} b`, 1000 * run, '{"n": 1}']);
      expect({ ...fast, rows: fast.rows.map((row) => ({ ...(row as object), id: 0, name: '' })) }).toEqual({
        ...viaQuery,
        rows: viaQuery.rows.map((row) => ({ ...(row as object), id: 0, name: '' })),
      });
      for (const rowMode of ['array', 'object'] as const) {
        expect(await pgliteQuery(client, null, select, [2000], { rowMode })).toEqual(
          await client.query(select, [2000], { rowMode }),
        );
      }
    }
    const update = await run('update items set price = price + $1 where price < $2', [1, 2000]);
    expect(update.affectedRows).toBe(4);
    expect((await run<{ n: number }>('select count(*)::int as n from items where $1', [true])).rows).toEqual([
      { n: 10 },
    ]);
    expect((await run('select $1::text as nothing', [null])).rows).toEqual([{ nothing: null }]);
  });

  it('is one call into the engine per statement once a text has run three times (and two calls the third time)', async () => {
    const calls = vi.spyOn(client, 'execProtocolStream');
    const perRun: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const before = calls.mock.calls.length;
      await run('select name from items where price > $1 and id > 0', [i]);
      perRun.push(calls.mock.calls.length - before);
    }
    calls.mockRestore();
    expect(perRun).toEqual([1, 1, 2, 1, 1]);
  });

  it('throws the database error with its code and constraint, and the statement still runs afterwards', async () => {
    const insert = 'insert into items (name, price) values ($1, $2) returning id';
    for (let i = 0; i < 4; i += 1) {
      await expect(run(insert, ['item 0', 1])).rejects.toMatchObject({
        code: '23505',
        constraint: 'items_name_key',
      });
    }
    expect((await run(insert, ['item new', 1])).rows).toHaveLength(1);
    await expect(run('select nonsense from', [])).rejects.toMatchObject({ code: '42601' });
  });

  it('runs inside a transaction, and a statement from outside waits for the transaction to end', async () => {
    let outside: Promise<unknown> | undefined;
    let outsideDone = false;
    await expect(
      client.transaction(async (tx) => {
        await pgliteQuery(client, tx, 'insert into items (name) values ($1)', ['in tx']);
        outside = run('select count(*)::int as n from items where name = $1', ['in tx']).then((result) => {
          outsideDone = true;
          return result.rows;
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(outsideDone).toBe(false);
        expect((await pgliteQuery(client, tx, 'select name from items where name = $1', ['in tx'])).rows).toEqual([
          { name: 'in tx' },
        ]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // It ran after the rollback: the row was never there for it.
    expect(await outside).toEqual([{ n: 0 }]);
  });

  it('leaves parameters it cannot write as text (an array, a Date) to PGlite query()', async () => {
    const viaQuery = vi.spyOn(client, 'query');
    const rows = await run('select $1::int[] as ids, $2::timestamptz as at', [
      [1, 2],
      new Date('2030-01-01T00:00:00Z'),
    ]);
    expect(viaQuery).toHaveBeenCalledTimes(1);
    viaQuery.mockRestore();
    expect(rows.rows).toEqual([{ ids: [1, 2], at: new Date('2030-01-01T00:00:00Z') }]);
  });
});
