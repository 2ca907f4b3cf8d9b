import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuPerOperation, evaluateGoals, evaluateRatioGoals, ratioGoal, verdictLine } from './goals';
import type { LoadResult } from './load';
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

describe('the read targets kept from before issue 35 (what `npm run bench` reports as MET or MISS)', () => {
  it('meets the read targets only with both the share of the bare server and the p99, at 100 connections', () => {
    const pg = (availability: [number, number], dates: [number, number]) =>
      engineRun('postgres', [
        read('availability', 10, 30_000, 0.9, 1),
        read('availability', 100, 20_000, ...availability),
        read('bookable-dates', 100, 20_000, ...dates),
      ]);
    expect(verdicts(results(pg([0.273, 16], [0.253, 16])))).toEqual([true, true, null, null, null, null]);
    expect(verdicts(results(pg([0.249, 16], [0.3, 50])))).toEqual([false, false, null, null, null, null]);
  });

  it('takes the best connection count for PGlite, and says "not measured" for an engine left out', () => {
    const pglite = engineRun('pglite', [
      read('availability', 10, 900, 0.02, 5),
      read('availability', 100, 1_200, 0.03, 90),
      read('bookable-dates', 10, 800, 0.02, 5),
    ]);
    const goals = evaluateGoals(results(pglite));
    expect(goals.map((goal) => goal.met)).toEqual([null, null, true, false, null, null]);
    expect(goals[0]!.measured).toBe('not measured');
    expect(goals[2]!.measured).toBe('1,200/s at 100 connections');
  });

  it('reports the cached day list at 100 connections, and no longer the absolute booking or search rates', () => {
    const pg = engineRun('postgres', [read('day-list', 10, 3_000, 0.05, 5), read('day-list', 100, 1_900, 0.03, 80)], {
      perSecond: [600, 700],
      overlaps: 0,
    });
    const pglite = engineRun('pglite', [read('day-list', 100, 1_000, 0.02, 150)]);
    const goals = evaluateGoals(results(pg, pglite));
    expect(goals.slice(4).map((goal) => [goal.target, goal.met])).toEqual([
      ['PostgreSQL admin day list (cached) at 100 connections: ≥ 2,000 req/s', false],
      ['PGlite admin day list (cached) at 100 connections: ≥ 1,000 req/s', true],
    ]);
    expect(goals.some((goal) => /booking|search/.test(goal.target))).toBe(false);
  });
});

describe("issue 35's ratio targets: the app's CPU per operation against the bare server's", () => {
  const cpu = (requests: number, serverCpuMs: number, dbCpuMs?: number) =>
    ({ requests, serverCpuMs, dbCpuMs }) as LoadResult;
  const booking = { operation: 'booking', unit: 'booking', goal: 2 } as const;
  const search = { operation: 'customer search', unit: 'search', goal: 1.5, key: 'customer-search' } as const;
  const dayList = {
    operation: 'admin day list',
    unit: 'list',
    goal: 1.5,
    key: 'day-list-uncached',
    note: 'uncached',
  } as const;

  it('prints one line per engine and operation, MET with two spaces and MISS with one', () => {
    expect(verdictLine(ratioGoal('postgres', booking, 3.6, 2))).toBe(
      'MET  PostgreSQL booking vs bare: 1.8× CPU per booking (goal ≤ 2×)',
    );
    expect(verdictLine(ratioGoal('pglite', booking, 4.7, 2))).toBe(
      'MISS PGlite booking vs bare: 2.35× CPU per booking (goal ≤ 2×)',
    );
    expect(verdictLine(ratioGoal('postgres', search, 3, 1))).toBe(
      'MISS PostgreSQL customer search vs bare: 3.0× CPU per search (goal ≤ 1.5×)',
    );
    expect(verdictLine(ratioGoal('pglite', dayList, 1.2, 1))).toBe(
      'MET  PGlite admin day list vs bare: 1.2× CPU per list (uncached, goal ≤ 1.5×)',
    );
    expect(verdictLine(ratioGoal('pglite', dayList, 1.2, undefined))).toBe(
      'n/a  PGlite admin day list vs bare: not measured (uncached, goal ≤ 1.5×)',
    );
  });

  it('is met up to the goal itself, judged on the ratio as printed (two decimals)', () => {
    const met = (app: number, target: typeof booking | typeof search) => ratioGoal('postgres', target, app, 1).met;
    expect(met(2, booking)).toBe(true);
    expect(met(2.004, booking)).toBe(true);
    expect(met(2.006, booking)).toBe(false);
    expect(met(2.01, booking)).toBe(false);
    expect(met(1.5, search)).toBe(true);
    expect(met(1.51, search)).toBe(false);
    expect(verdictLine(ratioGoal('postgres', booking, 2.004, 1))).toBe(
      'MET  PostgreSQL booking vs bare: 2.0× CPU per booking (goal ≤ 2×)',
    );
  });

  it('adds the server and the database, weighted by the requests of each connection count', () => {
    expect(cpuPerOperation([cpu(100, 1, 1), cpu(300, 2)])).toBe(2);
    expect(cpuPerOperation([cpu(0, 5, 5)])).toBeUndefined();
    expect(cpuPerOperation(undefined)).toBeUndefined();
  });

  it('evaluates PostgreSQL then PGlite for the booking, the search and the uncached day list', () => {
    const run = (engine: 'pglite' | 'postgres', factor: number) =>
      ({
        engine,
        reads: [
          { ...cpu(100, 3 * factor), key: 'customer-search' },
          { ...cpu(100, 9), key: 'day-list' },
          { ...cpu(100, 1.2), key: 'day-list-uncached' },
        ],
        booking: { runs: [cpu(10, 4, 4)] },
        bare: {
          reads: [
            { ...cpu(500, 2), key: 'customer-search' },
            { ...cpu(500, 1), key: 'day-list-uncached' },
          ],
          booking: { runs: [cpu(50, 2, 2)] },
        },
      }) as unknown as EngineRun;
    const goals = evaluateRatioGoals(results(run('pglite', 1), run('postgres', 2)));
    expect(goals.map((goal) => [goal.engine, goal.operation, goal.ratio, goal.met])).toEqual([
      ['postgres', 'booking', 2, true],
      ['pglite', 'booking', 2, true],
      ['postgres', 'customer search', 3, false],
      ['pglite', 'customer search', 1.5, true],
      ['postgres', 'admin day list', 1.2, true],
      ['pglite', 'admin day list', 1.2, true],
    ]);
    const withoutBare = { ...run('postgres', 1), bare: undefined } as EngineRun;
    expect(evaluateRatioGoals(results(withoutBare)).map((goal) => goal.met)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
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
