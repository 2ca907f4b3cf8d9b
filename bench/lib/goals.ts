/**
 * The targets (reported, not asserted). Issue 35's are ratios: the app's CPU per operation (server process and
 * database) against the bare server's doing the same work in the same run (bench/bare-server.ts), which hold on any
 * machine. Of the older absolute targets only the read endpoints' that were met remain.
 */
import type { Engine } from './databases';
import type { LoadResult } from './load';
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
  const pglite = run('pglite');
  for (const key of ['availability', 'bookable-dates'] as ReadKey[]) {
    const best = bestOf(pglite, key);
    goals.push({
      target: `PGlite ${key}: ≥ 1,000 req/s`,
      measured: best ? `${rate(best.rps)} at ${best.connections} connections` : 'not measured',
      met: best ? best.rps >= 1000 : null,
    });
  }
  // The staff day list as the desk asks for it, from the read cache (issue 17).
  goals.push(dayListGoal('PostgreSQL', pg, 2000), dayListGoal('PGlite', pglite, 1000));
  return goals;
}

/** The cached reservation list of one day at 100 connections (the front desk and every staff phone at once). */
function dayListGoal(name: string, run: EngineRun | undefined, perSecond: number): Goal {
  const at100 = run?.reads.find((r) => r.key === 'day-list' && r.connections === 100);
  return {
    target: `${name} admin day list (cached) at 100 connections: ≥ ${rate(perSecond).replace('/s', '')} req/s`,
    measured: at100 ? `${rate(at100.rps)}, p99 ${ms(at100.p99)}` : 'not measured',
    met: at100 ? at100.rps >= perSecond : null,
  };
}

function bestOf(run: EngineRun | undefined, key: ReadKey) {
  const runs = run?.reads.filter((r) => r.key === key) ?? [];
  return runs.length > 0 ? runs.reduce((a, b) => (b.rps > a.rps ? b : a)) : undefined;
}

/** Issue 35's operations: the app against the bare server, CPU per operation, at most `goal` times as much. */
const RATIO_TARGETS = [
  { operation: 'booking', unit: 'booking', goal: 2 },
  { operation: 'customer search', unit: 'search', goal: 1.5, key: 'customer-search' },
  { operation: 'admin day list', unit: 'list', goal: 1.5, key: 'day-list-uncached', note: 'uncached' },
] as const satisfies readonly { operation: string; unit: string; goal: number; key?: ReadKey; note?: string }[];
const ENGINE_LABELS: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

export interface RatioGoal {
  engine: Engine;
  operation: (typeof RATIO_TARGETS)[number]['operation'];
  unit: string;
  /** Printed before the goal, e.g. "uncached". */
  note?: string;
  goal: number;
  /** CPU milliseconds per operation (server process + database), over every measured connection count. */
  app?: number;
  bare?: number;
  /** app / bare, rounded to two decimals: what is printed is what is judged. */
  ratio?: number;
  met: boolean | null;
}

/** CPU milliseconds per request over several runs (server + database), weighted by each run's requests. */
export function cpuPerOperation(runs: readonly LoadResult[] | undefined): number | undefined {
  const measured = (runs ?? []).filter((run) => run.requests > 0 && run.serverCpuMs !== undefined);
  const requests = measured.reduce((sum, run) => sum + run.requests, 0);
  if (requests === 0) return undefined;
  const cpu = measured.reduce((sum, run) => sum + (run.serverCpuMs! + (run.dbCpuMs ?? 0)) * run.requests, 0);
  return cpu / requests;
}

/** The ratio goal of one operation from the app's and the bare server's CPU per operation. */
export function ratioGoal(
  engine: Engine,
  target: (typeof RATIO_TARGETS)[number],
  app: number | undefined,
  bare: number | undefined,
): RatioGoal {
  const base = { engine, operation: target.operation, unit: target.unit, goal: target.goal, app, bare };
  const note = 'note' in target ? { note: target.note } : {};
  if (app === undefined || bare === undefined || !(bare > 0)) return { ...base, ...note, met: null };
  const ratio = Math.round((app / bare) * 100) / 100;
  return { ...base, ...note, ratio, met: ratio <= target.goal };
}

/** Per operation, PostgreSQL then PGlite: booking, customer search, the uncached day list. */
export function evaluateRatioGoals(main: MainResults): RatioGoal[] {
  const goals: RatioGoal[] = [];
  for (const target of RATIO_TARGETS) {
    for (const engine of ['postgres', 'pglite'] as Engine[]) {
      const run = main.engines.find((e) => e.engine === engine);
      const [app, bare] =
        'key' in target
          ? [run?.reads, run?.bare?.reads].map((reads) => reads?.filter((r) => r.key === target.key))
          : [run?.booking?.runs, run?.bare?.booking.runs];
      goals.push(ratioGoal(engine, target, cpuPerOperation(app), cpuPerOperation(bare)));
    }
  }
  return goals;
}

const times = (value: number) => `${value.toFixed(2).endsWith('0') ? value.toFixed(1) : value.toFixed(2)}×`;

/** `MET  PostgreSQL booking vs bare: 1.8× CPU per booking (goal ≤ 2×)`; the caller adds `[bench] `. */
export function verdictLine(goal: RatioGoal): string {
  const verdict = goal.met === null ? 'n/a ' : goal.met ? 'MET ' : 'MISS';
  const measured = goal.ratio === undefined ? 'not measured' : `${times(goal.ratio)} CPU per ${goal.unit}`;
  const goalText = `${goal.note ? `${goal.note}, ` : ''}goal ≤ ${goal.goal}×`;
  return `${verdict} ${ENGINE_LABELS[goal.engine]} ${goal.operation} vs bare: ${measured} (${goalText})`;
}
