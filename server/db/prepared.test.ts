import { describe, expect, it } from 'vitest';
import type { Executor } from './client';
import { preparedOn } from './prepared';

describe('preparedOn', () => {
  it('builds a statement once per database handle and name, and again for another handle or name', () => {
    const first = {} as Executor;
    const second = {} as Executor;
    let builds = 0;
    const build = (db: Executor) => ({ db, build: (builds += 1) });
    const a = preparedOn(first, 'one', build);
    expect(preparedOn(first, 'one', build)).toBe(a);
    expect(a.db).toBe(first);
    expect(preparedOn(first, 'two', build)).not.toBe(a);
    expect(preparedOn(second, 'one', build).db).toBe(second);
    expect(builds).toBe(3);
  });
});
