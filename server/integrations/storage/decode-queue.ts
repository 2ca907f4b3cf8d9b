/**
 * Image decoding takes turns. sharp runs each pipeline on libuv's thread pool (4 threads by default), the same
 * pool that password hashing (scrypt), DNS lookups and file I/O use: 16 large images decoded at once kept every
 * thread busy for seconds and held staff logins up from under a second to 15 s. So at most
 * IMAGE_DECODES_AT_ONCE images are decoded at a time, in a queue of their own, and libvips itself works on one
 * thread per image: the rest of the pool stays free for logins and everything else.
 */
import sharp from 'sharp';

/** Images decoded and re-encoded at the same time, on this process. */
const IMAGE_DECODES_AT_ONCE = 1;

// One libvips worker thread per image (its default is one per core): a decode never takes more than one core.
sharp.concurrency(1);

/** A counting semaphore: `run` waits for one of `slots` places, runs `work` and gives the place back. */
export function createTaskQueue(slots: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  let started = 0;

  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    started += 1;
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line (running stays the same), or is given back.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  }

  return {
    run,
    /** How many tasks have started so far (what the tests read to see that a refusal decoded nothing). */
    started: () => started,
  };
}

/** The queue every decode of an uploaded image goes through (media-store.ts). */
export const imageDecodes = createTaskQueue(IMAGE_DECODES_AT_ONCE);
