// npm test: everything: one vitest run of every project (unit, components, integration on PGlite and on PostgreSQL,
// browser e2e) after the build, with lint, format check and typecheck beside it at low priority. It provisions what
// it needs: a throwaway PostgreSQL cluster from the local binaries, and Chromium's headless shell with Japanese fonts
// when missing (Debian, root).
// Extra arguments go to vitest, e.g. `npm test -- --project unit`. With CI=true nothing may be skipped: a skipped or
// todo test fails the run (NoSkippedTests in vitest.config.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BUILD_COMMAND } from './lib/build.mjs';
import { startThrowawayPostgres } from './lib/postgres.mjs';
import { CHROMIUM_PATH, ensureSystemDeps } from './lib/system-deps.mjs';

const root = path.resolve(import.meta.dirname, '..');
const vitestArgs = process.argv.slice(2);
const started = Date.now();
const log = (line) => console.log(`\n[npm test] ${line}`);
/**
 * The commands still running (checks, build, vitest), stopped with npm test when it is stopped. Those started with
 * `start` lead a process group of their own, stopped whole: `npm run typecheck` would leave its tsc running.
 */
const running = new Map(); // child → whether it leads its own process group
function track(child, ownGroup = false) {
  running.set(child, ownGroup);
  child.on('close', () => running.delete(child));
  return child;
}
function stopRunning() {
  for (const [child, ownGroup] of running) {
    try {
      if (ownGroup) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Starts a command with its output kept, to be printed in one block when it has ended (see `report`). A command at
 * `lowPriority` runs under `nice -n 19`: it gets the CPU the others leave idle and little more.
 */
function start({ label, command, args, env = process.env, lowPriority = false }) {
  const started = Date.now();
  const niced = lowPriority && process.platform !== 'win32';
  const child = spawn(niced ? 'nice' : command, niced ? ['-n', '19', command, ...args] : args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  track(child, process.platform !== 'win32');
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code, signal) =>
      resolve({ label, code: code ?? signal, seconds: Math.round((Date.now() - started) / 1000), output }),
    );
  });
}

/** Prints what a command started with `start` said; true when it passed. */
function report({ label, code, seconds, output }) {
  log(`${label}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
  if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  return code === 0;
}

/** Runs a command with its output shown as it comes; resolves to true when it passed. */
function runLive(label, command, args, env = process.env) {
  log(label);
  return new Promise((resolve) => {
    const child = track(spawn(command, args, { cwd: root, stdio: 'inherit', env }));
    child.on('close', (code, signal) => {
      if (code !== 0) log(`${label}: FAILED (exit ${code ?? signal})`);
      resolve(code === 0);
    });
  });
}

// What the selected projects need: `npm test -- --project unit` neither builds nor starts PostgreSQL. Without a
// --project every project runs. e2e needs the build and Chromium; e2e and the *-postgres projects need PostgreSQL.
const PROJECTS = [
  'unit',
  'components',
  'integration-pglite',
  'integration-postgres',
  'e2e',
  'load-pglite',
  'load-postgres',
]; // vitest.config.ts
const selected = selectedProjects(vitestArgs);
const runs = (name) => selected.includes(name);
const needsBuild = runs('e2e');
const needsPostgres = runs('e2e') || runs('integration-postgres') || runs('load-postgres');

/** The projects `--project <name>` / `--project=<name>` pick (vitest's wildcards included), or all of them. */
function selectedProjects(args) {
  const patterns = [];
  args.forEach((arg, i) => {
    if (arg === '--project' && args[i + 1]) patterns.push(args[i + 1]);
    else if (arg.startsWith('--project=')) patterns.push(arg.slice('--project='.length));
  });
  // No --project, or an exclusion (`--project=!e2e`): provide for everything rather than guess.
  if (patterns.length === 0 || patterns.some((pattern) => pattern.startsWith('!'))) return PROJECTS;
  const matches = (pattern, name) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name);
  return PROJECTS.filter((name) => patterns.some((pattern) => matches(pattern, name)));
}

const missing = needsBuild || needsPostgres ? ensureSystemDeps({ log }) : [];
if (missing.length > 0) {
  console.error('\nThe test suite needs these, and they could not be installed here:');
  for (const requirement of missing)
    console.error(`  - ${requirement.name} (Debian package: ${requirement.debianPackage})`);
  console.error('Install them (or set CHROMIUM_PATH / TEST_POSTGRES_URL) and run npm test again.');
  process.exit(1);
}

let postgres = null;
function cleanup() {
  postgres?.stop();
  postgres = null;
}
// Ctrl-C reaches the whole process group; a SIGTERM (a CI time limit) reaches this process only.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    stopRunning();
    cleanup();
    process.exit(code);
  });
}

const node = process.execPath;
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const onlySelectedProjects = vitestArgs.length > 0;

// Lint, format check and typecheck need nothing the tests need, and the tests nothing of theirs: they run beside the
// build and the tests at the lowest CPU priority, on the CPU the tests leave idle (files waiting on a browser, a
// server start or a token's lifetime), and are reported after the tests. Run before the tests, they took their own
// ~80 s of both cores (docs/BENCHMARKS.md).
const checks = onlySelectedProjects
  ? []
  : [
      { label: 'lint', command: node, args: [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings', '0'] },
      { label: 'format', command: node, args: [bin('prettier', 'bin/prettier.cjs'), '--check', '.'] },
      { label: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
    ];
if (checks.length > 0) log(`${checks.map((c) => c.label).join(', ')}: started beside the tests at low priority`);
const checksDone = Promise.all(checks.map((check) => start({ ...check, lowPriority: true })));

const env = { ...process.env, CHROMIUM_PATH };
const [built] = await Promise.all([
  // The production build (see scripts/lib/build.mjs for why NODE_ENV is set).
  needsBuild ? start({ ...BUILD_COMMAND, env: { ...process.env, NODE_ENV: 'production' } }).then(report) : true,
  needsPostgres && !env.TEST_POSTGRES_URL
    ? startThrowawayPostgres({ log }).then((started) => {
        postgres = started;
        env.TEST_POSTGRES_URL = started.url;
      })
    : null,
]);
const testsPassed = built && (await runLive('vitest', node, [bin('vitest', 'vitest.mjs'), 'run', ...vitestArgs], env));
cleanup();
const checksPassed = (await checksDone).map(report).every(Boolean);
if (!built || !testsPassed || !checksPassed) {
  log('FAILED: see above');
  process.exit(1);
}
log(`all green in ${Math.round((Date.now() - started) / 1000)} s`);
