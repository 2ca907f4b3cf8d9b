/** bench/results.md from bench/results.json: the tables docs/BENCHMARKS.md quotes. */
import type { ExplainedQuery } from './explain';
import { evaluateGoals, evaluateRatioGoals, verdictLine } from './goals';
import type { LoadResult } from './load';
import type { Machine } from './machine';
import type { EngineRun, GrowthResults, MainResults, ResultsFile } from './results';
import { READ_LABELS, type ReadKey } from './scenarios';
import { webSection } from './web/report';

const ENGINE_NAMES = {
  pglite: 'PGlite (embedded, default)',
  postgres: 'PostgreSQL (throwaway local cluster)',
} as const;
export const int = (value: number) => Math.round(value).toLocaleString('en-US');
/** autocannon measures latency in whole milliseconds. */
const ms = (value: number) => (value < 1 ? '<1' : value.toFixed(0));
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const cpu = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));
const others = (run: LoadResult, ok: string) =>
  Object.entries(run.statuses)
    .filter(([code]) => code !== ok)
    .map(([code, count]) => `${count}×${code}`)
    .concat(run.errors > 0 ? [`${run.errors} errors`] : [])
    .join(', ') || '0';

export function machineLine(machine: Machine): string {
  const load = machine.loadAverage;
  const busy = Math.max(load.start, load.end ?? 0) > machine.cpus;
  return [
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}; `,
    `taken ${machine.takenAt.slice(0, 16).replace('T', ' ')} UTC; load average ${load.start} at start, ${load.end ?? '?'} at end`,
    busy ? ' (above the CPU count: other work shared the machine, so these numbers are lower bounds).' : '.',
  ].join('');
}

function engineTable(run: EngineRun): string[] {
  const lines = [
    '| Endpoint | Connections | req/s | p50 ms | p99 ms | vs bare Fastify | server CPU ms/req | DB CPU ms/req | other answers |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const hello of run.hello) {
    lines.push(
      `| bare Fastify hello-world | ${hello.connections} | ${int(hello.rps)} | ${ms(hello.p50)} | ${ms(hello.p99)} | 100% | ${cpu(hello.serverCpuMs)} | — | ${others(hello, '200')} |`,
    );
  }
  for (const read of [...run.reads, ...(run.bare?.reads ?? []).map((r) => ({ ...r, bare: true }))]) {
    const label = `${'bare' in read ? 'bare server: ' : ''}${READ_LABELS[read.key]}`;
    lines.push(
      `| ${label} | ${read.connections} | ${int(read.rps)} | ${ms(read.p50)} | ${ms(read.p99)} | ${pct(read.ratio)} | ` +
        `${cpu(read.serverCpuMs)} | ${cpu(read.dbCpuMs)} | ${others(read, '200')} |`,
    );
  }
  return lines;
}

function bookingTable(runs: EngineRun[]): string[] {
  const lines = [
    '| Engine | Connections | attempts | 201 created | 409 taken | other | bookings/s | p50 ms | p99 ms | server CPU ms/req | DB CPU ms/req |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const run of runs) {
    if (!run.booking) continue;
    const bare = (run.bare?.booking.runs ?? []).map((b) => ({ ...b, who: `${run.engine}, bare server` }));
    for (const b of [...run.booking.runs.map((b) => ({ ...b, who: run.engine })), ...bare]) {
      const other =
        Object.entries(b.statuses)
          .filter(([code]) => code !== '201' && code !== '409')
          .map(([c, n]) => `${n}×${c}`)
          .join(', ') || '0';
      lines.push(
        `| ${b.who} | ${b.connections} | ${int(b.requests)} | ${int(b.created)} | ${int(b.conflicts)} | ${other} | ${int(b.bookingsPerSecond)} | ${ms(b.p50)} | ${ms(b.p99)} | ${cpu(b.serverCpuMs)} | ${cpu(b.dbCpuMs)} |`,
      );
    }
  }
  return lines;
}

function explainTable(queries: ExplainedQuery[]): string[] {
  const lines = ['| Query | Execution ms | Indexes used | Full scans |', '|---|---:|---|---|'];
  for (const q of queries)
    lines.push(
      `| ${q.name} | ${q.executionMs.toFixed(3)} | ${q.indexes.join(', ') || '—'} | ${q.seqScans.join(', ') || '—'} |`,
    );
  return lines;
}

function mainSection(main: MainResults): string[] {
  const first = main.engines[0]?.dataset;
  const lines = [
    `## Main run (\`npm run bench${main.size === 'small' ? ' -- --size small' : ''}\`)`,
    '',
    machineLine(main.machine),
    '',
    first
      ? `Data set: 1 salon, ${first.staff} staff, ${first.services} services, ${int(first.customers)} customers, ${int(first.reservations)} reservations ` +
        `(${int(first.upcoming)} upcoming in the next 60 days, ${int(first.history)} history at ${first.historyPerDay} a day), a year of opening slots. ` +
        `Each run lasts ${main.durationSeconds} s after a 2 s warm-up; server LOG_LEVEL=${main.logLevel}.`
      : '',
    '',
  ];
  for (const run of main.engines) {
    lines.push(
      `### ${ENGINE_NAMES[run.engine]}`,
      '',
      `Data generated in ${run.dataset.generationSeconds.toFixed(0)} s.`,
      '',
      ...engineTable(run),
      '',
    );
  }
  if (main.engines.some((run) => run.booking)) {
    lines.push(
      '### Booking creation (POST /api/reservations/)',
      '',
      'Each request is a different customer asking for a start that is free in the database (30-minute service; the',
      'server picks the staff member). 409 = the slot was taken by a concurrent booking after 4 attempts. Afterwards',
      'SQL counts pairs of active reservations of one staff member that overlap.',
      '',
      ...bookingTable(main.engines),
      '',
    );
    for (const run of main.engines) {
      if (!run.booking) continue;
      const created = run.booking.runs.reduce((sum, b) => sum + b.created, run.booking.warmup.created);
      lines.push(
        `- ${run.engine}: ${int(created)} bookings answered 201 (warm-up included), ${int(run.booking.check.createdByBench)} rows in the database; ` +
          `${run.booking.check.overlappingPairs} overlapping pairs.`,
      );
    }
    lines.push('');
  }
  lines.push(...ratioSection(main));
  lines.push('### Targets', '', '| Target | Measured | Met |', '|---|---|---|');
  for (const goal of evaluateGoals(main))
    lines.push(`| ${goal.target} | ${goal.measured} | ${goal.met === null ? '—' : goal.met ? 'yes' : 'no'} |`);
  lines.push('');
  for (const run of main.engines) {
    lines.push(
      `### EXPLAIN ANALYZE on ${run.engine} (${int(run.dataset.reservations)} reservations)`,
      '',
      ...explainTable(run.explain),
      '',
      // The staff screens' plans (issue 17): which index answers the day list and the customer search.
      `<details><summary>Plans of the day list and the customer search (${run.engine})</summary>`,
      '',
    );
    for (const q of run.explain.filter((e) => /day list|customer search/.test(e.name))) {
      lines.push(`**${q.name}**`, '', '```', q.plan, '```', '');
    }
    lines.push('</details>', '');
  }
  return lines;
}

/** Issue 35: CPU per operation of the app and of the bare server (bench/bare-server.ts), and the verdicts. */
function ratioSection(main: MainResults): string[] {
  const goals = evaluateRatioGoals(main);
  if (goals.every((goal) => goal.met === null)) return [];
  const lines = [
    '### CPU per operation: the app against the bare server',
    '',
    'Server process + database, milliseconds per operation over every measured connection count (the bare server:',
    'no auth, no validation, no logger, one SQL statement per request; bench/bare-server.ts).',
    '',
    '| Engine | Operation | App CPU ms | Bare CPU ms | Ratio | Goal | Verdict |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const goal of goals) {
    const ms = (value?: number) => (value === undefined ? '—' : value.toFixed(2));
    lines.push(
      `| ${goal.engine} | ${goal.operation}${goal.note ? ` (${goal.note})` : ''} | ${ms(goal.app)} | ${ms(goal.bare)} | ` +
        `${goal.ratio === undefined ? '—' : `${goal.ratio.toFixed(2)}×`} | ≤ ${goal.goal}× | ${verdictLine(goal).slice(0, 4).trim()} |`,
    );
  }
  lines.push('');
  for (const run of main.engines)
    if (run.comparedAnswers)
      lines.push(`- ${run.engine}: the bare server answered ${run.comparedAnswers} sample requests as the app did.`);
  lines.push('');
  return lines;
}

function growthSection(growth: GrowthResults): string[] {
  const lines = ['## Growth (`npm run bench -- --growth`)', '', machineLine(growth.machine), ''];
  const keys = Object.keys(READ_LABELS) as ReadKey[];
  for (const { engine, steps } of growth.engines) {
    const heads = steps.map((s) => `${int(s.reservations)} reservations`);
    lines.push(
      `### ${ENGINE_NAMES[engine]}: req/s · p99 ms · server CPU ms per request, at ${steps[0]?.reads[0]?.connections ?? '?'} connections`,
      '',
    );
    lines.push(`| Endpoint | ${heads.join(' | ')} |`, `|---|${heads.map(() => '---:').join('|')}|`);
    const cell = (r: LoadResult | undefined) => (r ? `${int(r.rps)} · ${ms(r.p99)} · ${cpu(r.serverCpuMs)}` : '—');
    const hello = steps.map((s) => cell(s.hello[0]));
    lines.push(`| bare Fastify hello-world | ${hello.join(' | ')} |`);
    // Endpoints a series did not measure (added to the benchmark later) are left out rather than shown empty.
    for (const key of keys.filter((k) => steps.some((step) => step.reads.some((r) => r.key === k)))) {
      const cells = steps.map((s) => cell(s.reads.find((r) => r.key === key)));
      lines.push(`| ${READ_LABELS[key]} | ${cells.join(' | ')} |`);
    }
    lines.push('', `EXPLAIN ANALYZE execution time (ms) and the index used, ${engine}:`, '');
    lines.push(`| Query | ${heads.join(' | ')} | Indexes used |`, `|---|${heads.map(() => '---:').join('|')}|---|`);
    for (const [i, q] of (steps.at(-1)?.explain ?? []).entries()) {
      const cells = steps.map((s) => s.explain[i]?.executionMs.toFixed(3) ?? '—');
      const reads = [q.indexes.join(', '), q.seqScans.length ? `full scan of ${q.seqScans.join(', ')}` : ''].filter(
        Boolean,
      );
      lines.push(`| ${q.name} | ${cells.join(' | ')} | ${reads.join('; ') || '—'} |`);
    }
    const largest = steps.at(-1);
    if (largest) {
      lines.push('', `<details><summary>Plans at ${int(largest.reservations)} reservations (${engine})</summary>`, '');
      for (const q of largest.explain.filter((e) => /availability|bookable|day list|customer search/.test(e.name))) {
        lines.push(`**${q.name}**`, '', '```', q.plan, '```', '');
      }
      lines.push('</details>', '');
    }
  }
  return lines;
}

export function renderMarkdown(results: ResultsFile): string {
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see docs/BENCHMARKS.md for what is measured and how). Numbers depend on the machine',
    'and on whatever else ran on it; the ratios to the bare Fastify server are the comparable part.',
    '',
  ];
  if (results.main) lines.push(...mainSection(results.main));
  if (results.growth) lines.push(...growthSection(results.growth));
  if (results.web) lines.push(...webSection(results.web));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
