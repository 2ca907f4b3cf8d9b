import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from './client';
import { nextMaintenanceAt, scheduleEmbeddedMaintenance } from './maintenance';

const tokyo = (local: string) => new Date(`${local}+09:00`);

describe('nightly maintenance of the embedded database', () => {
  afterEach(() => vi.useRealTimers());

  it('plans the next 04:00 in the salon’s zone, never the current instant', () => {
    expect(nextMaintenanceAt(tokyo('2030-01-15T03:59:59'), 'Asia/Tokyo')).toEqual(tokyo('2030-01-15T04:00:00'));
    expect(nextMaintenanceAt(tokyo('2030-01-15T04:00:00'), 'Asia/Tokyo')).toEqual(tokyo('2030-01-16T04:00:00'));
    expect(nextMaintenanceAt(tokyo('2030-12-31T23:30:00'), 'Asia/Tokyo')).toEqual(tokyo('2031-01-01T04:00:00'));
    // The night the clocks go forward in New York (02:00 → 03:00): 04:00 EDT.
    expect(nextMaintenanceAt(new Date('2030-03-10T06:00:00Z'), 'America/New_York')).toEqual(
      new Date('2030-03-10T08:00:00Z'),
    );
  });

  function fakeDatabase(engine: 'pglite' | 'postgres') {
    const statements: string[] = [];
    const execute = vi.fn(async (query: { queryChunks: Array<{ value?: string[] }> }) => {
      statements.push(query.queryChunks.flatMap((chunk) => chunk.value ?? []).join(''));
      return { rows: [] };
    });
    return { handle: { engine, db: { execute } } as unknown as DatabaseHandle, statements };
  }
  const logger = { info: vi.fn(), error: vi.fn() };
  const schedule = (database: DatabaseHandle, log = logger) =>
    scheduleEmbeddedMaintenance({ database, timeZone: 'Asia/Tokyo', now: () => new Date(), logger: log });

  it('runs VACUUM (ANALYZE) at 04:00 every night on PGlite, and stops when the app closes', async () => {
    vi.useFakeTimers({ now: tokyo('2030-01-15T22:00:00') });
    const { handle, statements } = fakeDatabase('pglite');
    const maintenance = schedule(handle);
    await vi.advanceTimersByTimeAsync(6 * 60 * 60 * 1000 - 1000);
    expect(statements).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(statements).toEqual(['VACUUM (ANALYZE)']);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    expect(statements).toEqual(['VACUUM (ANALYZE)', 'VACUUM (ANALYZE)']);
    expect(logger.info).toHaveBeenCalledWith(expect.objectContaining({ ms: expect.any(Number) }), expect.any(String));
    await maintenance.stop();
    await vi.advanceTimersByTimeAsync(48 * 60 * 60 * 1000);
    expect(statements).toHaveLength(2);
  });

  it('leaves PostgreSQL to its own autovacuum', async () => {
    vi.useFakeTimers({ now: tokyo('2030-01-15T22:00:00') });
    const { handle, statements } = fakeDatabase('postgres');
    const maintenance = schedule(handle);
    await vi.advanceTimersByTimeAsync(48 * 60 * 60 * 1000);
    expect(statements).toEqual([]);
    await maintenance.stop();
  });

  it('logs a failed run and still plans the next night', async () => {
    vi.useFakeTimers({ now: tokyo('2030-01-15T03:00:00') });
    const { handle } = fakeDatabase('pglite');
    const execute = handle.db.execute as unknown as ReturnType<typeof vi.fn>;
    execute.mockRejectedValueOnce(new Error('disk full'));
    const errors = { info: vi.fn(), error: vi.fn() };
    const maintenance = schedule(handle, errors);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(errors.error).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(errors.info).toHaveBeenCalledTimes(1);
    await maintenance.stop();
  });
});
