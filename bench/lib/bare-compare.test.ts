import { describe, expect, it } from 'vitest';
import { assertSameAnswers, firstDifference, type Answer } from './bare-compare';

const answer = (body: unknown, total: string | null = '2', status = 200): Answer => ({
  path: '/p',
  status,
  total,
  body,
});
const rows = [
  { id: 1, name: '佐藤 花子', updated_at: '2026-11-27T06:00:00.123Z' },
  { id: 2, name: '佐藤 太郎', updated_at: '2026-11-27T06:00:01.000Z' },
];

describe("the bare server's answers against the app's", () => {
  it('accepts the same JSON whatever the order of the keys', () => {
    const reordered = rows.map(({ id, name, updated_at }) => ({ updated_at, name, id }));
    expect(() => assertSameAnswers([answer(rows)], [answer(reordered)])).not.toThrow();
  });

  it('stops on a different field, row count, X-Total-Count or status, naming the request and the place', () => {
    const changed = [rows[0], { ...rows[1], updated_at: '2026-11-27T06:00:01.001Z' }];
    expect(() => assertSameAnswers([answer(rows)], [answer(changed)])).toThrow(/\/p: \$\[1\]\.updated_at/);
    expect(() => assertSameAnswers([answer(rows)], [answer(rows.slice(0, 1))])).toThrow(/2 items against 1/);
    expect(() => assertSameAnswers([answer(rows)], [answer(rows, '3')])).toThrow(/X-Total-Count 2 against 3/);
    expect(() => assertSameAnswers([answer(rows)], [answer('error', '2', 500)])).toThrow(/status 200 against 500/);
    expect(() => assertSameAnswers([answer('denied', null, 401)], [answer(rows)])).toThrow(/the app answered 401/);
  });

  it('tells a missing field from a null one', () => {
    expect(firstDifference({ a: null }, {})).toBe('$.a: null against undefined');
  });
});
