import { describe, expect, it } from 'vitest';
import { createReadCache } from './read-cache';

function deferred<V>() {
  let resolve!: (value: V) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('booking read cache', () => {
  it('serves a value until it is ttl old, then loads again', async () => {
    let time = 0;
    let loads = 0;
    const cache = createReadCache({ ttlMs: 5_000, clock: () => time });
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    time = 4_999;
    expect(await cache.get('k', load)).toBe(1);
    time = 5_000;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('lets concurrent requests on a cold key share one load', async () => {
    const cache = createReadCache({ ttlMs: 5_000 });
    const pending = deferred<string>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return pending.promise;
    };
    const answers = Promise.all(Array.from({ length: 100 }, () => cache.get('k', load)));
    pending.resolve('v');
    expect(await answers).toEqual(Array.from({ length: 100 }, () => 'v'));
    expect(loads).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const cache = createReadCache({ ttlMs: 5_000 });
    await expect(cache.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('after clear(), answers from a fresh load, also when the old load finishes later', async () => {
    const cache = createReadCache({ ttlMs: 5_000 });
    const old = deferred<string>();
    const before = cache.get('k', () => old.promise);
    cache.clear();
    const after = cache.get('k', async () => 'after the write');
    old.resolve('before the write');
    expect(await before).toBe('before the write');
    expect(await after).toBe('after the write');
    expect(await cache.get('k', async () => 'unused')).toBe('after the write');
  });

  it('clearAnswers() drops the answers and keeps the settings; clear() drops both', async () => {
    const cache = createReadCache({ ttlMs: 5_000 });
    await cache.get('salon', async () => 'settings v1', 'settings');
    await cache.get('starts|2030-01-10', async () => 'answer v1');
    cache.clearAnswers();
    expect(await cache.get('salon', async () => 'settings v2', 'settings')).toBe('settings v1');
    expect(await cache.get('starts|2030-01-10', async () => 'answer v2')).toBe('answer v2');
    cache.clear();
    expect(await cache.get('salon', async () => 'settings v3', 'settings')).toBe('settings v3');
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = createReadCache({ ttlMs: 5_000, maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, async () => key);
    expect(cache.size()).toBe(3);
    expect(await cache.get('a', async () => 'reloaded')).toBe('reloaded');
    expect(await cache.get('d', async () => 'unused')).toBe('d');
  });
});
