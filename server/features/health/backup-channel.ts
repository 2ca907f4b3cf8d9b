import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The embedded database lives inside the server process, and PGlite does not lock its folder: a second process
 * opening DATA_DIR/db while the server runs would corrupt it. So `npm run backup` asks the running server for
 * the copy, over a Unix socket in DATA_DIR that only the server's own user may open (mode 0600). Nothing of
 * this is reachable over the network. The same socket tells the operator's scripts that a server is running.
 */
const BACKUP_SOCKET_NAME = 'backup.sock';

/**
 * Unix socket paths are limited (108 bytes on Linux, 104 on macOS) and a longer one is silently cut short, which
 * would put the socket somewhere else. Past this length there is no channel (and the scripts say so).
 */
const MAX_SOCKET_PATH_BYTES = 100;

export function backupSocketPath(dataDir: string): string {
  return path.join(dataDir, BACKUP_SOCKET_NAME);
}

export function socketPathTooLong(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES;
}

interface BackupChannel {
  close(): Promise<void>;
}

export class DataDirInUseError extends Error {
  constructor(readonly socketPath: string) {
    super(
      `Another server is already running on this DATA_DIR (it answers on ${socketPath}). Stop it first: two processes on one embedded database corrupt it.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Listens on `socketPath`: `GET /` answers that a server runs (and its pid), `POST /backup` streams `dump()`.
 * A socket file left by a server that was killed is replaced; one that still answers means another server owns
 * this DATA_DIR, and this one refuses to go on.
 */
export async function startBackupChannel(options: {
  socketPath: string;
  dump: () => Promise<Blob>;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}): Promise<BackupChannel> {
  const { socketPath, dump, log } = options;
  if (socketPathTooLong(socketPath)) {
    log.warn(
      { socketPath },
      'DATA_DIR is too long a path for the backup socket: `npm run backup` works only while the server is stopped',
    );
    return { close: async () => {} };
  }
  if (await serverAnswers(socketPath)) throw new DataDirInUseError(socketPath);
  fs.rmSync(socketPath, { force: true });

  let busy = false;
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'running', pid: process.pid }));
      return;
    }
    if (request.method !== 'POST' || request.url !== '/backup') {
      response.writeHead(404).end();
      return;
    }
    // One copy at a time: each one holds the database for its duration and the whole tarball in memory.
    if (busy) {
      response.writeHead(409, { 'content-type': 'text/plain' }).end('a backup is already being made\n');
      return;
    }
    busy = true;
    const started = Date.now();
    dump()
      .then(async (blob) => {
        const bytes = Buffer.from(await blob.arrayBuffer());
        response
          .writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(bytes.length) })
          .end(bytes);
        log.info({ bytes: bytes.length, ms: Date.now() - started }, 'database backup sent');
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'database backup failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('the backup failed: see the server log\n');
      })
      .finally(() => {
        busy = false;
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is created with mode 0600 from the start (umask), so no other user can open it even briefly;
    // binding a path happens within listen(), so the umask is restored before anything else runs.
    const previousUmask = process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(previousUmask);
    }
  });
  fs.chmodSync(socketPath, 0o600);

  return {
    close: () =>
      new Promise<void>((resolve) => {
        // close() removes the socket file once the last connection has ended.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Whether a server runs on the socket. Nothing there (no file, or a file left by a killed server) is false;
 * anything else, even a server too busy to answer in time, counts as running: the callers' next step would be to
 * open the database themselves, which must never happen under a live server.
 */
export function serverAnswers(socketPath: string, timeoutMs = 5_000): Promise<boolean> {
  if (socketPathTooLong(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const request = http.get({ socketPath, path: '/', timeout: timeoutMs, agent: false }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('timeout', () => request.destroy(new Error('no answer in time')));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED'),
    );
  });
}

/** Opens the channel while the app runs, for a database that can copy itself (PGlite in DATA_DIR/db). */
export function registerBackupChannel(
  app: {
    log: Parameters<typeof startBackupChannel>[0]['log'];
    addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown;
  },
  options: { dataDir: string; dump: (() => Promise<Blob>) | undefined },
) {
  const { dump } = options;
  if (!dump) return;
  let channel: BackupChannel | null = null;
  app.addHook('onReady', async () => {
    channel = await startBackupChannel({ socketPath: backupSocketPath(options.dataDir), dump, log: app.log });
  });
  app.addHook('onClose', async () => {
    await channel?.close();
  });
}
