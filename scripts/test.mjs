// npm test: everything: lint, format check, typecheck and build side by side, then one vitest run of every project
// (unit, components, integration on PGlite and on PostgreSQL, browser e2e). It provisions what it needs: a throwaway
// PostgreSQL cluster from the local binaries, and Chromium with Japanese fonts when missing (Debian, root).
// Extra arguments go to vitest, e.g. `npm test -- --project unit`. With CI=true nothing may be skipped.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { BUILD_COMMAND } from './lib/build.mjs';
import { startThrowawayPostgres } from './lib/postgres.mjs';
import { CHROMIUM_PATH, ensureSystemDeps } from './lib/system-deps.mjs';

const root = path.resolve(import.meta.dirname, '..');
const vitestArgs = process.argv.slice(2);
const started = Date.now();
const log = (line) => console.log(`\n[npm test] ${line}`);

/**
 * Runs independent checks at the same time (each is partly single-threaded, so two cores finish them sooner
 * together), printing each one's output in one block when it ends; stops at the end if any failed.
 */
async function runSideBySide(commands) {
  if (commands.length === 0) return;
  log(`${commands.map((c) => c.label).join(', ')} (side by side)`);
  const results = await Promise.all(
    commands.map(
      ({ label, command, args, env = process.env }) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code, signal) => {
            const seconds = Math.round((Date.now() - started) / 1000);
            log(`${label}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${seconds} s`);
            if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
            resolve(code === 0);
          });
        }),
    ),
  );
  if (results.some((passed) => !passed)) {
    cleanup();
    process.exit(1);
  }
}

function run(label, command, args, env = process.env) {
  log(label);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    log(`${label}: FAILED (exit ${result.status ?? result.signal})`);
    cleanup();
    process.exit(result.status || 1);
  }
}

// What the selected projects need: `npm test -- --project unit` neither builds nor starts PostgreSQL. Without a
// --project every project runs. e2e needs the build and Chromium; e2e and integration-postgres need PostgreSQL.
const PROJECTS = ['unit', 'components', 'integration-pglite', 'integration-postgres', 'e2e']; // vitest.config.ts
const selected = selectedProjects(vitestArgs);
const runs = (name) => selected.includes(name);
const needsBuild = runs('e2e');
const needsPostgres = runs('e2e') || runs('integration-postgres');

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
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

const node = process.execPath;
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const onlySelectedProjects = vitestArgs.length > 0;
const checks = [];
if (!onlySelectedProjects) {
  checks.push(
    { label: 'lint', command: node, args: [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings', '0'] },
    { label: 'format', command: node, args: [bin('prettier', 'bin/prettier.cjs'), '--check', '.'] },
    { label: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  );
}
// The production build (see scripts/lib/build.mjs for why NODE_ENV is set).
if (needsBuild) checks.push({ ...BUILD_COMMAND, env: { ...process.env, NODE_ENV: 'production' } });
await runSideBySide(checks);

const env = { ...process.env, CHROMIUM_PATH };
if (needsPostgres && !env.TEST_POSTGRES_URL) {
  postgres = await startThrowawayPostgres({ log });
  env.TEST_POSTGRES_URL = postgres.url;
}
run('vitest', node, [bin('vitest', 'vitest.mjs'), 'run', ...vitestArgs], env);
cleanup();
log(`all green in ${Math.round((Date.now() - started) / 1000)} s`);
