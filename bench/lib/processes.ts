/**
 * The processes under load, each in a child process of its own so that the load generator (this process) never
 * shares an event loop with them: the real server started like `npm start`, and a bare Fastify hello-world.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '#tests/helpers/free-port.mjs';
import { onCleanup } from './cleanup';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface RunningProcess {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

async function startProcess(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  logFile: string,
): Promise<RunningProcess> {
  const port = await freePort();
  // A clean environment: nothing from the caller's shell (DATABASE_URL, LINE_*, SMTP_*) leaks into the run.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(DATABASE_URL|LINE_|SMTP_|ADMIN_|JWT_SECRET|DEMO_DATA|PUBLIC_URL|DATA_DIR)/.test(key),
    ),
  );
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...base, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logFile);
  let output = '';
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    // Only the start of the output is kept in memory (start-up messages and the first errors).
    if (output.length < 20_000) output += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const forget = onCleanup(() => child.kill('SIGKILL'));

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${url}${readyPath}`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not answer within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      forget();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      log.end();
    },
  };
}

/** Node flags that write the server's CPU profile into `--profile`'s folder. */
export function profileArgs(options: { profileDir?: string }): string[] {
  return options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
}

/** The product as `npm start` runs it (scripts/start.mjs → dist-server/server.mjs), without rebuilding the browser app. */
export function startAppServer(
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): Promise<RunningProcess> {
  return startProcess(
    [...nodeArgs, path.join(root, 'scripts', 'start.mjs')],
    { SKIP_BUILD: 'true', DEMO_DATA: 'false', ...env },
    '/api/config/',
    logFile,
  );
}

/** The physical limit: Fastify answering `{"hello":"world"}` (through tsx: how it is loaded does not change its rate). */
export function startHelloServer(logFile: string): Promise<RunningProcess> {
  return startProcess(['--import', 'tsx', path.join(root, 'bench', 'hello-server.ts')], {}, '/', logFile);
}

/**
 * The bare limits on the benchmark's database (bench/bare-server.ts): `DATABASE_URL`, or `BARE_PGLITE_DIR` while
 * no other process holds that PGlite folder. Answers `/api/config/` as the app does, for the settle step.
 */
export function startBareServer(env: Record<string, string>, logFile: string): Promise<RunningProcess> {
  return startProcess(['--import', 'tsx', path.join(root, 'bench', 'bare-server.ts')], env, '/api/config/', logFile);
}
