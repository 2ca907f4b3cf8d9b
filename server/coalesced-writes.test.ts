import { describe, expect, it } from 'vitest';
import { coalescedWrites } from './coalesced-writes';

/** A write the test finishes by hand, recording what each call carried. */
function controlledWrite() {
  const writes: number[][] = [];
  const finishers: Array<(error?: Error) => void> = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push(items);
      finishers.push((error) => (error ? reject(error) : resolve()));
    });
  const finish = (error?: Error) => finishers.shift()!(error);
  return { writes, write, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('coalescedWrites', () => {
  it('writes the calls of one turn together, and the calls made meanwhile together, in order, in the next write', async () => {
    const { writes, write, finish } = controlledWrite();
    const add = coalescedWrites(write);
    const first = [add(1), add(2)];
    await tick();
    expect(writes).toEqual([[1, 2]]);
    const rest = [add(3), add(4), add(5)];
    await tick();
    expect(writes).toEqual([[1, 2]]);
    finish();
    await Promise.all(first);
    await tick();
    expect(writes).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    finish();
    await Promise.all(rest);
    // Idle again: the next call is written at the end of its turn, alone.
    const later = add(6);
    expect(writes).toHaveLength(2);
    await tick();
    expect(writes).toEqual([[1, 2], [3, 4, 5], [6]]);
    finish();
    await later;
  });

  it('settles each call as the write that carried it did, and goes on with the next batch after a failure', async () => {
    const { writes, write, finish } = controlledWrite();
    const add = coalescedWrites(write);
    const first = add(1);
    await tick();
    const second = add(2);
    finish(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await tick();
    expect(writes).toEqual([[1], [2]]);
    finish();
    await expect(second).resolves.toBeUndefined();
  });
});
