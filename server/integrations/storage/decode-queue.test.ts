import { describe, expect, it } from 'vitest';
import { createTaskQueue } from './decode-queue';

describe('createTaskQueue', () => {
  it('runs at most `slots` tasks at a time, in the order they came, and goes on after a failure', async () => {
    const queue = createTaskQueue(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (id: number, fail = false) =>
      queue.run(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(id);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (fail) throw new Error(`task ${id} failed`);
        return id;
      });
    const results = await Promise.allSettled([task(1), task(2, true), task(3), task(4), task(5)]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(queue.started()).toBe(5);
    // Every place was given back: two more run at once again.
    most = 0;
    await Promise.all([task(6), task(7)]);
    expect(most).toBe(2);
  });
});
