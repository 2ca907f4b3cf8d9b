import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteAnswer, noteNoAnswer, onConnectionBack, resetConnectionForTests } from './connection-state';

describe('the connection coming back', () => {
  beforeEach(() => {
    resetConnectionForTests();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-10T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('is told once per 10 s, however often a half-working network goes from no answer to an answer', () => {
    const reactions: number[] = [];
    const stop = onConnectionBack(() => reactions.push(Date.now()));
    noteAnswer(); // Already answering: not "back".
    expect(reactions).toHaveLength(0);

    noteNoAnswer();
    noteAnswer();
    expect(reactions).toHaveLength(1);
    // A POST reset while GETs get through: back and forth, a second apart.
    for (let second = 1; second < 10; second += 1) {
      vi.setSystemTime(new Date(Date.UTC(2030, 0, 10, 10, 0, second)));
      noteNoAnswer();
      noteAnswer();
    }
    expect(reactions).toHaveLength(1);
    vi.setSystemTime(new Date('2030-01-10T10:00:10Z'));
    noteNoAnswer();
    noteAnswer();
    expect(reactions).toEqual([Date.UTC(2030, 0, 10, 10, 0, 0), Date.UTC(2030, 0, 10, 10, 0, 10)]);
    stop();
    noteNoAnswer();
    vi.setSystemTime(new Date('2030-01-10T10:01:00Z'));
    noteAnswer();
    expect(reactions).toHaveLength(2);
  });
});
