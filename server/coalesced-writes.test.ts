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
  it('writes the first call at once and the calls made meanwhile together, in order, in the next write', async () => {
    const { writes, write, finish } = controlledWrite();
    const add = coalescedWrites(write);
    const first = add(1);
    const rest = [add(2), add(3), add(4)];
    await tick();
    expect(writes).toEqual([[1]]);
    finish();
    await first;
    await tick();
    expect(writes).toEqual([[1], [2, 3, 4]]);
    finish();
    await Promise.all(rest);
    // Idle again: the next call is written at once, alone.
    const later = add(5);
    await tick();
    expect(writes).toEqual([[1], [2, 3, 4], [5]]);
    finish();
    await later;
  });

  it('settles each call as the write that carried it did, and goes on with the next batch after a failure', async () => {
    const { writes, write, finish } = controlledWrite();
    const add = coalescedWrites(write);
    const first = add(1);
    const second = add(2);
    await tick();
    finish(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await tick();
    expect(writes).toEqual([[1], [2]]);
    finish();
    await expect(second).resolves.toBeUndefined();
  });
});
