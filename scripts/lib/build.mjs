// Builds the browser app (dist/) when it is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'sw', 'public', 'index.html', 'vite.config.ts', 'package.json', 'manifest.webmanifest'];

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

export function buildIsStale() {
  const built = path.join(root, 'dist', 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

/** `vite build` as a command (scripts/test.mjs runs it beside the other checks). */
export const BUILD_COMMAND = {
  label: 'build',
  command: process.execPath,
  args: [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
};

/** Runs `vite build`; exits the process when it fails. */
export function buildApp() {
  const result = spawnSync(BUILD_COMMAND.command, BUILD_COMMAND.args, {
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
