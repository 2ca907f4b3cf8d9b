// A throwaway PostgreSQL cluster from the machine's own binaries, for tests and benchmarks.
// As root it runs the server as the `postgres` user (PostgreSQL refuses to run as root).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/helpers/free-port.mjs';

/** Finds initdb and pg_ctl on PATH or in Debian's versioned folders; null when PostgreSQL is not installed. */
export function findPostgresBin() {
  const candidates = [];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) candidates.push(dir);
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    for (const version of fs.readdirSync(debianRoot).sort().reverse())
      candidates.push(path.join(debianRoot, version, 'bin'));
  }
  for (const dir of candidates) {
    if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

/**
 * Starts a cluster in a fresh temporary folder on 127.0.0.1 and a free port.
 * Returns { url, stop }: url is a superuser connection string to the `postgres` database.
 */
export async function startThrowawayPostgres({ log = () => {} } = {}) {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries (initdb, pg_ctl) were not found. On Debian: apt-get install postgresql',
    );
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-pg-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const asOwner = (command, args) =>
    isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const run = (command, args) => {
    const [cmd, argv] = asOwner(command, args);
    const result = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };

  const port = await freePort();
  log(`starting a throwaway PostgreSQL on 127.0.0.1:${port}`);
  run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale']);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=300',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    // Racing inserts into an exclusion constraint can deadlock by design, which ends as the same 409 as a lost race
    // (server/features/reservations/reservations.service.ts). The race suites provoke many of those; waiting
    // PostgreSQL's default second before each detection only lengthened them (booking-race.test.ts: 5–11 s → 1–2 s
    // for its deadlock case). A booking that waits on a lock behind one that is not deadlocked still just waits.
    '-c deadlock_timeout=100ms',
  ].join(' ');
  run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone: nothing to stop.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dataDir, bin, stop };
}
