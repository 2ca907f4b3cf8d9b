import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateGoals } from './goals';
import { parseOptions } from './options';
import type { EngineRun, MainResults } from './results';

/** Only the fields the targets read; the rest of a run does not matter to them. */
const read = (key: string, connections: number, rps: number, ratio: number, p99: number) => ({
  key,
  connections,
  rps,
  ratio,
  p99,
});
const engineRun = (
  engine: 'pglite' | 'postgres',
  reads: object[],
  booking?: { perSecond: number[]; overlaps: number },
) =>
  ({
    engine,
    reads,
    booking: booking
      ? {
          runs: booking.perSecond.map((bookingsPerSecond, i) => ({ connections: [10, 100][i], bookingsPerSecond })),
          check: { overlappingPairs: booking.overlaps },
        }
      : null,
  }) as unknown as EngineRun;
const results = (...engines: EngineRun[]) => ({ engines }) as unknown as MainResults;
const verdicts = (main: MainResults) => evaluateGoals(main).map((goal) => goal.met);

describe('benchmark targets (what `npm run bench` reports as MET or MISS)', () => {
  it('meets the read targets only with both the share of the bare server and the p99, at 100 connections', () => {
    const pg = (availability: [number, number], dates: [number, number]) =>
      engineRun('postgres', [
        read('availability', 10, 30_000, 0.9, 1),
        read('availability', 100, 20_000, ...availability),
        read('bookable-dates', 100, 20_000, ...dates),
      ]);
    expect(verdicts(results(pg([0.273, 16], [0.253, 16])))).toEqual([
      true,
      true,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(verdicts(results(pg([0.249, 16], [0.3, 50])))).toEqual([
      false,
      false,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('meets the booking target only at 500 bookings a second with no overlapping pair', () => {
    const pg = (perSecond: number[], overlaps: number) => results(engineRun('postgres', [], { perSecond, overlaps }));
    expect(verdicts(pg([189, 219], 0))[2]).toBe(false);
    expect(verdicts(pg([510, 480], 0))[2]).toBe(true);
    expect(verdicts(pg([510, 600], 1))[2]).toBe(false);
  });

  it('takes the best connection count for PGlite, and says "not measured" for an engine left out', () => {
    const pglite = engineRun('pglite', [
      read('availability', 10, 900, 0.02, 5),
      read('availability', 100, 1_200, 0.03, 90),
      read('bookable-dates', 10, 800, 0.02, 5),
    ]);
    const goals = evaluateGoals(results(pglite));
    expect(goals.map((goal) => goal.met)).toEqual([null, null, null, true, false, null, null, null, null]);
    expect(goals[0]!.measured).toBe('not measured');
    expect(goals[3]!.measured).toBe('1,200/s at 100 connections');
  });
});

describe("the staff screens' targets (issue 17)", () => {
  const targets = (...engines: EngineRun[]) =>
    evaluateGoals(results(...engines))
      .slice(5)
      .map((goal) => [goal.target, goal.met]);

  it('reports the day list at 100 connections and the search at its best level with a p99 under 100 ms', () => {
    const pg = engineRun('postgres', [
      read('day-list', 10, 3_000, 0.05, 5),
      read('day-list', 100, 1_900, 0.03, 80),
      read('customer-search', 10, 1_100, 0.02, 20),
      read('customer-search', 100, 1_500, 0.02, 140),
    ]);
    const pglite = engineRun('pglite', [
      read('day-list', 100, 1_000, 0.02, 150),
      read('customer-search', 10, 299, 0.01, 40),
      read('customer-search', 100, 400, 0.01, 300),
    ]);
    expect(targets(pg, pglite)).toEqual([
      ['PostgreSQL admin day list at 100 connections: ≥ 2,000 req/s', false],
      ['PostgreSQL customer search: ≥ 1,000 req/s with p99 < 100 ms', true],
      ['PGlite admin day list at 100 connections: ≥ 1,000 req/s', true],
      ['PGlite customer search: ≥ 300 req/s with p99 < 100 ms', false],
    ]);
    const measured = evaluateGoals(results(pg, pglite)).slice(5);
    expect(measured[1]!.measured).toBe('1,100/s, p99 20.0 ms at 10 connections');
    expect(measured[3]!.measured).toBe('400/s, p99 300.0 ms at 100 connections');
  });

  it('says "not measured" for an engine left out', () => {
    expect(targets(engineRun('postgres', [])).map(([, met]) => met)).toEqual([null, null, null, null]);
  });
});

describe('benchmark options', () => {
  it('reads sizes, engines, connections and the profile folder, and refuses what it does not know', () => {
    const small = parseOptions(['--size', 'small', '--engine=postgres', '--connections', '100', '--profile', 'prof']);
    expect(small).toMatchObject({ size: 'small', engines: ['postgres'], connections: [100], duration: 5 });
    expect(small.shape.reservations).toBe(20_000);
    expect(small.profileDir).toBe(path.resolve('prof'));
    expect(parseOptions([])).toMatchObject({
      size: 'full',
      engines: ['pglite', 'postgres'],
      connections: [10, 100],
      duration: 10,
    });
    expect(parseOptions([]).profileDir).toBeUndefined();
    expect(() => parseOptions(['--engine', 'mysql'])).toThrow(/--engine/);
    expect(() => parseOptions(['--connections', '0'])).toThrow(/--connections/);
  });
});
