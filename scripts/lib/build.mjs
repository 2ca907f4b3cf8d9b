// The two builds `npm start` runs: the browser app (dist/, Vite) and the server (dist-server/server.mjs, esbuild:
// docs/decisions/0019-the-server-is-bundled.md), each when it is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'sw', 'public', 'index.html', 'vite.config.ts', 'package.json', 'manifest.webmanifest'];
/** What the server bundle is made of: its own code, the code it shares with the browser, and package.json's imports. */
const SERVER_SOURCES = ['server', 'src/shared', 'package.json'];
export const SERVER_BUNDLE = path.join(root, 'dist-server', 'server.mjs');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function isOlderThan(built, sources) {
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return sources.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

export const buildIsStale = () => isOlderThan(path.join(root, 'dist', 'index.html'), SOURCES);
export const serverBuildIsStale = () => isOlderThan(SERVER_BUNDLE, SERVER_SOURCES);

/**
 * Bundles server/server.ts and the modules it imports from server/ and src/shared/ into one ES module; packages
 * stay in node_modules (PGlite finds its WASM files next to its own code). No minifying and no source map: a stack
 * trace names the functions of the sources, and each module's code follows a `// server/…` comment in the bundle.
 * Written aside and renamed into place, so servers starting together never load half of one.
 */
export async function buildServer() {
  const building = `${SERVER_BUNDLE}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [path.join(root, 'server', 'server.ts')],
    outfile: building,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // package.json's "imports" list the .ts and .tsx candidates as an array, which esbuild does not read.
    alias: { '#src': path.join(root, 'src'), '#server': path.join(root, 'server') },
    logLevel: 'warning',
  });
  fs.renameSync(building, SERVER_BUNDLE);
}

/** `npm run build` (scripts/build.mjs: both builds) as a command: scripts/test.mjs runs it beside the other checks. */
export const BUILD_COMMAND = {
  label: 'build',
  command: process.execPath,
  args: [path.join(root, 'scripts', 'build.mjs')],
};

const VITE_BUILD = [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'];

/** Runs `vite build`; exits the process when it fails. */
export function buildApp() {
  const result = spawnSync(process.execPath, VITE_BUILD, {
    cwd: root,
    stdio: 'inherit',
    // Always the production build: a NODE_ENV=test inherited from a test runner would make Vite build React's
    // development bundles (larger, no service worker), and npm start would then serve those.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('The browser build failed.');
    process.exit(result.status ?? 1);
  }
}
