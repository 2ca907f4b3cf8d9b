/**
 * The process: environment, database, first-start data, HTTP server, graceful shutdown.
 * Everything HTTP lives in app.ts, which tests build directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { closeToOthers, PRIVATE_UMASK } from './data-dir';
import { openDatabase } from './db/client';
import { backupSocketPath, DataDirInUseError, serverAnswers } from './features/health/backup-channel';
import { ensureInitialData } from './db/seed';
import { EnvError, loadEnv } from './env';
import { karteDirOf } from './integrations/storage/karte-photos';
import { sweepOrphanUploads } from './integrations/storage/orphan-uploads';
import { loadOrCreateSecret } from './secrets';

async function main() {
  // Before anything is written: every folder and file this process creates is closed to other users (data-dir.ts).
  process.umask(PRIVATE_UMASK);
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Checked before the embedded database touches them: its own failure is a stack trace from inside PGlite.
  const storageProblem =
    writableDirProblem('DATA_DIR', env.dataDir) ??
    (process.env.UPLOAD_DIR ? writableDirProblem('UPLOAD_DIR', env.uploadDir) : null);
  if (storageProblem) {
    console.error(storageProblem);
    process.exit(1);
  }
  // A DATA_DIR an earlier start (or a mkdir by hand) left open: nobody else may look in while it is tightened below.
  closePrivateFolders([env.dataDir, env.uploadDir], { rootOnly: true });

  // Two processes on one embedded database corrupt it: a server already answering on this DATA_DIR's backup
  // socket owns it, and this one stops before opening anything.
  if (!env.DATABASE_URL && (await serverAnswers(backupSocketPath(env.dataDir)))) {
    console.error(new DataDirInUseError(backupSocketPath(env.dataDir)).message);
    process.exit(1);
  }

  const say = (line: string) => console.log(line);
  let database;
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'db') });
    await database.migrate();
    const db = database;
    // Instances starting together on an empty PostgreSQL take turns, or both would create the superuser.
    await db.withStartupLock(() =>
      ensureInitialData({
        db: db.db,
        dataDir: env.dataDir,
        timeZone: env.SALON_TZ,
        adminUsername: env.ADMIN_USERNAME,
        adminPassword: env.ADMIN_PASSWORD,
        demoData: env.DEMO_DATA,
        log: say,
      }),
    );
  } catch (error) {
    // The disk filling up (or turning read-only) between the check above and here. A full PostgreSQL server
    // (53100 over DATABASE_URL) is not DATA_DIR's problem: its own error says so.
    const remoteDiskFull = Boolean(env.DATABASE_URL) && (error as { code?: unknown } | null)?.code === '53100';
    if (isStorageError(error) && !remoteDiskFull) {
      console.error(
        `Cannot write to DATA_DIR ${env.dataDir}: ${describeStorageError(error)}; free some space or set DATA_DIR to a writable directory`,
      );
      process.exit(1);
    }
    throw error;
  }

  try {
    // Message images at the top, カルテ photos in their private subfolder (server/integrations/storage/karte-photos.ts).
    for (const dir of [env.uploadDir, karteDirOf(env.uploadDir)]) {
      const swept = await sweepOrphanUploads({ dir, db: database.db });
      const count = swept.temporary.length + swept.unreferenced.length;
      if (count > 0) say(`Removed ${count} upload file(s) left by an interrupted send from ${dir}`);
    }
  } catch (error) {
    // Leftover files cost only disk space: never a reason not to start.
    console.error('Could not sweep orphaned uploads:', error);
  }

  const jwtSecret = env.JWT_SECRET ?? loadOrCreateSecret(env.dataDir, 'jwt-secret');
  // The embedded engine sets its files' modes itself (0666, whatever the umask): tightened once it has written them.
  closePrivateFolders([env.dataDir, env.uploadDir]);
  const app = await buildApp({ env, database, jwtSecret, logger: { level: env.LOG_LEVEL } });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ host: env.HOST, port: env.PORT });
  say(
    `Salon reservations is running at ${address} (database: ${database.engine}${env.lineDevMode ? ', LINE emulator at /dev/line' : ''})`,
  );
  say(`Customer login: ${address}/login   Staff: ${address}/admin (login ID "${env.ADMIN_USERNAME}")`);
}

/** Takes group and other permissions from the folders (and, unless `rootOnly`, all they hold); says what failed. */
function closePrivateFolders(folders: string[], options: { rootOnly?: boolean } = {}) {
  for (const folder of new Set(folders)) {
    try {
      if (options.rootOnly) {
        if (fs.existsSync(folder)) fs.chmodSync(folder, fs.statSync(folder).mode & 0o700);
        continue;
      }
      const { failed } = closeToOthers(folder);
      if (failed.length > 0) console.error(`Could not close to other users: ${failed.slice(0, 5).join('; ')}`);
    } catch (error) {
      // Permissions are a safeguard, never a reason not to start.
      console.error(`Could not close ${folder} to other users:`, error);
    }
  }
}

const STORAGE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a file is in the way, not a directory',
  EEXIST: 'a file is in the way, not a directory',
};

function isStorageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // 53100 is PostgreSQL's (and so the embedded engine's) disk_full.
  return typeof code === 'string' && (code in STORAGE_ERRORS || code === '53100');
}

function describeStorageError(error: unknown): string {
  const code = (error as { code: string }).code;
  return code === '53100' ? 'no space left on device' : `${STORAGE_ERRORS[code]} (${code})`;
}

/** One line naming the variable and what to do, or null when the directory takes a small file now. */
function writableDirProblem(variable: string, dir: string): string | null {
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    // A few blocks: a full disk refuses them even when an empty file would still be created.
    const fd = fs.openSync(probe, 'w', 0o600);
    try {
      fs.writeSync(fd, Buffer.alloc(64 * 1024));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.rmSync(probe, { force: true });
    return null;
  } catch (error) {
    try {
      fs.rmSync(probe, { force: true });
    } catch {
      // There was nothing to remove (the directory itself is the problem).
    }
    const reason = isStorageError(error) ? describeStorageError(error) : String((error as Error).message ?? error);
    return `Cannot write to ${variable} ${dir}: ${reason}; set ${variable} to a directory this user can write to, with free space`;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
