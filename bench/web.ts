/**
 * `npm run bench:web`: gzipped build sizes per entry, and Lighthouse (mobile) on /login, /reserve and /admin
 * against the product as `npm start` serves it (demo data, the dist/ that exists; `--build` rebuilds it first
 * with Vite's manifest). Writes the `web` part of bench/results.json and bench/results.md. See docs/BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanupNow, onCleanup } from './lib/cleanup';
import { describeMachine, finishMachine } from './lib/machine';
import { startAppServer } from './lib/processes';
import { renderMarkdown } from './lib/report';
import { readResults, RESULTS_JSON, RESULTS_MD, writeMarkdown, writeResults } from './lib/results';
import { measureBundles } from './lib/web/bundle';
import { auditPage, CHROMIUM, reportFile, type PageAudit } from './lib/web/lighthouse';
import { formatSpread, PERFORMANCE_GOAL, summarizeAudits } from './lib/web/summary';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, 'dist');
const PAGES = ['/login', '/reserve', '/admin'];
const log = (line: string) => console.log(`[bench:web] ${line}`);

async function main(argv: string[]) {
  const build = argv.includes('--build');
  const skipLighthouse = argv.includes('--no-lighthouse');
  // Lighthouse's scores move from run to run: each page is audited `--runs` times and judged on the median.
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 1;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number of runs, 1 or more');
  // The full Lighthouse reports (trace-derived audits: what the first paint waited for, long tasks, unused bytes)
  // are kept in this folder when asked; otherwise they go with the run's temporary folder.
  const keepAt = argv.indexOf('--keep-reports');
  const keepArg = keepAt >= 0 ? argv[keepAt + 1] : undefined;
  const keepDir =
    keepAt < 0
      ? null
      : keepArg && !keepArg.startsWith('--')
        ? path.resolve(keepArg)
        : path.join(os.tmpdir(), 'salon-lighthouse');
  const machine = describeMachine();
  if (build) {
    log('vite build --manifest');
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--manifest'],
      { cwd: root, stdio: 'inherit' },
    );
    if (result.status !== 0) throw new Error('vite build failed');
  }
  if (!fs.existsSync(path.join(distDir, 'index.html')))
    throw new Error('dist/index.html is missing: run `npm run build` (or pass --build)');
  const builtAt = fs.statSync(path.join(distDir, 'index.html')).mtime.toISOString();
  const bundles = measureBundles(distDir);
  for (const entry of bundles.entries) {
    log(
      `${entry.name.padEnd(60)} ${entry.missing ?? `JS ${(entry.jsGzip / 1024).toFixed(1)} KB, CSS ${(entry.cssGzip / 1024).toFixed(1)} KB gzipped`}`,
    );
  }

  const pages: PageAudit[] = [];
  if (!skipLighthouse) {
    if (!fs.existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install chromium (or set CHROMIUM_PATH)`);
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-web-'));
    const forget = onCleanup(() => fs.rmSync(workDir, { recursive: true, force: true }));
    const server = await startAppServer(
      { DATA_DIR: workDir, DEMO_DATA: 'true', LOG_LEVEL: 'warn' },
      path.join(workDir, 'server.log'),
    );
    try {
      for (let run = 1; run <= runs; run += 1) {
        for (const page of PAGES) {
          log(`lighthouse ${page}${runs > 1 ? ` (run ${run} of ${runs})` : ''}...`);
          const audit = await auditPage(server.url, page, workDir);
          if (keepDir) {
            fs.mkdirSync(keepDir, { recursive: true });
            const kept = reportFile(keepDir, runs > 1 ? `${page}-${run}` : page);
            fs.copyFileSync(reportFile(workDir, page), kept);
            log(`kept ${kept}`);
          }
          log(
            `${page}: performance ${audit.scores.performance}, accessibility ${audit.scores.accessibility} (landed on ${audit.finalUrl})`,
          );
          pages.push(audit);
        }
      }
    } finally {
      await server.stop();
      forget();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }

  for (const page of summarizeAudits(pages)) {
    for (const [category, value] of Object.entries(page.scores))
      log(`${page.path} ${category}: median ${formatSpread(value)} over ${page.runs} run${page.runs > 1 ? 's' : ''}`);
    const performance = page.scores.performance?.median ?? 0;
    log(
      `${page.met ? 'MET ' : 'MISS'} ${page.path}: performance median ${performance} (goal ≥ ${PERFORMANCE_GOAL}), ` +
        `accessibility median ${page.scores.accessibility?.median ?? '—'} (goal 100)`,
    );
  }
  const results = readResults();
  results.web = { machine: finishMachine(machine), builtAt, bundles, runs, pages };
  writeResults(results);
  const markdown = renderMarkdown(results);
  await writeMarkdown(markdown);
  log(`wrote ${RESULTS_JSON} and ${RESULTS_MD}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanupNow();
    process.exit(130);
  });
}
try {
  await main(process.argv.slice(2));
  process.exit(0);
} catch (error) {
  console.error(error);
  cleanupNow();
  process.exit(1);
}
