/**
 * `npm run bench`: the API under load on PGlite and on PostgreSQL, against the limit of the stack (a bare
 * Fastify server on the same machine). Writes bench/results.json and bench/results.md. Not part of `npm test`.
 * See docs/BENCHMARKS.md.
 */
import { cleanupNow } from './lib/cleanup';
import { evaluateGoals, evaluateRatioGoals, verdictLine } from './lib/goals';
import { runGrowth } from './lib/growth-run';
import { describeMachine, finishMachine } from './lib/machine';
import { runMain } from './lib/main-run';
import { parseOptions, type BenchOptions } from './lib/options';
import { renderMarkdown } from './lib/report';
import {
  readResults,
  RESULTS_JSON,
  RESULTS_MD,
  writeMarkdown,
  writeResults,
  type EngineRun,
  type GrowthResults,
} from './lib/results';

const log = (line: string) => console.log(`[bench] ${line}`);

async function main(options: BenchOptions) {
  if (options.reportOnly) {
    await writeMarkdown(renderMarkdown(readResults()));
    log(`rendered ${RESULTS_MD} from ${RESULTS_JSON}`);
    return;
  }
  const machine = describeMachine();
  log(`${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, load average ${machine.loadAverage.start}`);
  const results = readResults();
  if (options.growth) {
    const engines: GrowthResults['engines'] = [];
    for (const engine of options.engines) {
      log(`== growth on ${engine}: ${options.growthSteps.join(', ')} reservations`);
      engines.push({ engine, steps: await runGrowth(engine, options, log) });
    }
    results.growth = {
      machine: finishMachine(machine),
      size: options.size,
      durationSeconds: options.duration,
      engines,
    };
  } else {
    const engines: EngineRun[] = [];
    for (const engine of options.engines) {
      log(`== ${engine}`);
      engines.push(await runMain(engine, options, log));
    }
    results.main = {
      machine: finishMachine(machine),
      size: options.size,
      durationSeconds: options.duration,
      logLevel: options.logLevel,
      engines,
    };
  }
  writeResults(results);
  const markdown = renderMarkdown(results);
  await writeMarkdown(markdown);
  console.log(`\n${markdown}`);
  if (results.main && !options.growth) {
    for (const goal of evaluateGoals(results.main))
      log(`${goal.met === null ? 'n/a ' : goal.met ? 'MET ' : 'MISS'}  ${goal.target}: ${goal.measured}`);
    for (const goal of evaluateRatioGoals(results.main)) log(verdictLine(goal));
  }
  log(`wrote ${RESULTS_JSON} and ${RESULTS_MD}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanupNow();
    process.exit(130);
  });
}

let options: BenchOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
try {
  await main(options);
  process.exit(0);
} catch (error) {
  console.error(error);
  cleanupNow();
  process.exit(1);
}
