/** The targets (reported, not asserted): each with what was measured and whether it was met. */
import type { Engine } from './databases';
import type { EngineRun, MainResults } from './results';
import type { ReadKey } from './scenarios';

export interface Goal {
  target: string;
  measured: string;
  /** null: not measured in this run (engine or level left out). */
  met: boolean | null;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;

export function evaluateGoals(main: MainResults): Goal[] {
  const run = (engine: Engine) => main.engines.find((e) => e.engine === engine);
  const goals: Goal[] = [];
  const pg = run('postgres');
  for (const key of ['availability', 'bookable-dates'] as ReadKey[]) {
    const at100 = pg?.reads.find((r) => r.key === key && r.connections === 100);
    goals.push({
      target: `PostgreSQL ${key} at 100 connections: ≥ 25% of bare Fastify, p99 < 50 ms`,
      measured: at100
        ? `${(at100.ratio * 100).toFixed(1)}% (${rate(at100.rps)}), p99 ${ms(at100.p99)}`
        : 'not measured',
      met: at100 ? at100.ratio >= 0.25 && at100.p99 < 50 : null,
    });
  }
  goals.push(bookingGoal(pg));
  const pglite = run('pglite');
  for (const key of ['availability', 'bookable-dates'] as ReadKey[]) {
    const best = bestOf(pglite, key);
    goals.push({
      target: `PGlite ${key}: ≥ 1,000 req/s`,
      measured: best ? `${rate(best.rps)} at ${best.connections} connections` : 'not measured',
      met: best ? best.rps >= 1000 : null,
    });
  }
  // The staff screens (issue 17): PostgreSQL first, then the embedded engine, as above.
  goals.push(dayListGoal('PostgreSQL', pg, 2000), searchGoal('PostgreSQL', pg, 1000));
  goals.push(dayListGoal('PGlite', pglite, 1000), searchGoal('PGlite', pglite, 300));
  return goals;
}

/** The reservation list of one day at 100 connections (the front desk and every staff phone at once). */
function dayListGoal(name: string, run: EngineRun | undefined, perSecond: number): Goal {
  const at100 = run?.reads.find((r) => r.key === 'day-list' && r.connections === 100);
  return {
    target: `${name} admin day list at 100 connections: ≥ ${rate(perSecond).replace('/s', '')} req/s`,
    measured: at100 ? `${rate(at100.rps)}, p99 ${ms(at100.p99)}` : 'not measured',
    met: at100 ? at100.rps >= perSecond : null,
  };
}

/** Customer search: met when one measured connection count reaches the rate with a p99 under 100 ms. */
function searchGoal(name: string, run: EngineRun | undefined, perSecond: number): Goal {
  const runs = run?.reads.filter((r) => r.key === 'customer-search') ?? [];
  const target = `${name} customer search: ≥ ${rate(perSecond).replace('/s', '')} req/s with p99 < 100 ms`;
  if (runs.length === 0) return { target, measured: 'not measured', met: null };
  const meeting = runs.filter((r) => r.rps >= perSecond && r.p99 < 100);
  const shown = meeting.length > 0 ? meeting : runs;
  const best = shown.reduce((a, b) => (b.rps > a.rps ? b : a));
  return {
    target,
    measured: `${rate(best.rps)}, p99 ${ms(best.p99)} at ${best.connections} connections`,
    met: meeting.length > 0,
  };
}

function bestOf(run: EngineRun | undefined, key: ReadKey) {
  const runs = run?.reads.filter((r) => r.key === key) ?? [];
  return runs.length > 0 ? runs.reduce((a, b) => (b.rps > a.rps ? b : a)) : undefined;
}

function bookingGoal(pg: EngineRun | undefined): Goal {
  const target = 'PostgreSQL booking creation: ≥ 500 bookings/s, no overlap';
  if (!pg?.booking) return { target, measured: 'not measured', met: null };
  const best = pg.booking.runs.reduce((a, b) => (b.bookingsPerSecond > a.bookingsPerSecond ? b : a));
  const overlaps = pg.booking.check.overlappingPairs;
  return {
    target,
    measured: `${rate(best.bookingsPerSecond)} at ${best.connections} connections; ${overlaps} overlapping pairs`,
    met: best.bookingsPerSecond >= 500 && overlaps === 0,
  };
}
