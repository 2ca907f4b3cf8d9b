// npm test: everything, in order: lint, format check, typecheck, build, then one vitest run of every project
// (unit, components, integration on PGlite and on PostgreSQL, browser e2e). It provisions what it needs: a throwaway
// PostgreSQL cluster from the local binaries, and Chromium with Japanese fonts when missing (Debian, root).
// Extra arguments go to vitest, e.g. `npm test -- --project unit`. With CI=true nothing may be skipped.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildApp } from './lib/build.mjs';
import { startThrowawayPostgres } from './lib/postgres.mjs';
import { CHROMIUM_PATH, ensureSystemDeps } from './lib/system-deps.mjs';

const root = path.resolve(import.meta.dirname, '..');
const vitestArgs = process.argv.slice(2);
const started = Date.now();
const log = (line) => console.log(`\n[npm test] ${line}`);

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
if (!onlySelectedProjects) {
  run('lint', node, [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings', '0']);
  run('format', node, [bin('prettier', 'bin/prettier.cjs'), '--check', '.']);
  run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
}
if (needsBuild) {
  log('build');
  buildApp();
}

const env = { ...process.env, CHROMIUM_PATH };
if (needsPostgres && !env.TEST_POSTGRES_URL) {
  postgres = await startThrowawayPostgres({ log });
  env.TEST_POSTGRES_URL = postgres.url;
}
run('vitest', node, [bin('vitest', 'vitest.mjs'), 'run', ...vitestArgs], env);
cleanup();
log(`all green in ${Math.round((Date.now() - started) / 1000)} s`);
