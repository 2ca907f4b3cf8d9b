import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..', '..');

interface ThrowawayPostgres {
  url: string;
  port: number;
  dataDir: string;
  bin: string;
  stop(): void;
}

/** A PostgreSQL cluster of the test's own (scripts/lib/postgres.mjs), which the test may stop and start. */
export interface OwnPostgres extends ThrowawayPostgres {
  /** pg_ctl stop: `fast` ends every session (what a restart or failover does to the app's connections). */
  stopServer(mode?: 'fast' | 'immediate'): Promise<void>;
  /** pg_ctl start with the options the cluster was first started with. */
  startServer(): Promise<void>;
}

/** For the suites that stop PostgreSQL under load: never the shared TEST_POSTGRES_URL cluster. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  // The runner's own module (plain JS) is loaded at run time: the suite and `npm test` share one implementation.
  const lib = (await import(
    /* @vite-ignore */ pathToFileURL(path.join(root, 'scripts', 'lib', 'postgres.mjs')).href
  )) as {
    startThrowawayPostgres(): Promise<ThrowawayPostgres>;
  };
  const cluster = await lib.startThrowawayPostgres();
  const isRoot = process.getuid?.() === 0;
  // Asynchronous: the test keeps its load running (and timing it) while pg_ctl waits.
  const pgCtl = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const command = path.join(cluster.bin, 'pg_ctl');
      const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
      execFile(cmd, argv as string[], { encoding: 'utf8' }, (error, stdout, stderr) =>
        error ? reject(new Error(`pg_ctl ${args[0]} failed: ${stderr || stdout}`)) : resolve(),
      );
    });
  // postmaster.opts records the server's argv as "quoted" words: everything but the binary and -D <dir>.
  const opts = fs.readFileSync(path.join(cluster.dataDir, 'postmaster.opts'), 'utf8');
  const words = [...opts.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
  const dIndex = words.indexOf('-D');
  if (dIndex >= 0) words.splice(dIndex, 2);
  const logFile = path.join(path.dirname(cluster.dataDir), 'server.log');
  return {
    ...cluster,
    stopServer: (mode = 'fast') => pgCtl(['stop', '-D', cluster.dataDir, '-m', mode, '-w']),
    startServer: () => pgCtl(['start', '-D', cluster.dataDir, '-o', words.join(' '), '-l', logFile, '-w']),
  };
}

/** A new empty database on a cluster; `drop()` removes it (ending any session still on it). */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
