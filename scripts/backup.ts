// npm run backup [-- <file>] [--force]: a consistent copy of the embedded database (DATA_DIR/db) into one file,
// whether the server runs or not. A running server makes the copy itself (PGlite lives in its process and
// must not be opened by a second one) and sends it over its backup socket; with no server running, this
// command opens the database itself. Every copy is opened once before it is called good.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../server/db/client';
import {
  dataDirPaths,
  describeCounts,
  hasDatabase,
  openPglite,
  OperatorError,
  refuseWhenPostgres,
  rowCounts,
  runCommand,
  serverState,
  timestamp,
  uncleanMessage,
  type DataDirPaths,
} from './lib/embedded-database';

const args = process.argv.slice(2);
const force = args.includes('--force');
const fileArgument = args.find((arg) => !arg.startsWith('--'));

runCommand(async () => {
  refuseWhenPostgres('Back it up with pg_dump');
  const paths = dataDirPaths();
  if (!hasDatabase(paths.dbDir)) {
    throw new OperatorError(
      `No embedded database in ${paths.dbDir}. Is DATA_DIR the server's (set it as the server has it)?`,
    );
  }
  const target = path.resolve(fileArgument ?? path.join(paths.dataDir, 'backups', `salon-${timestamp()}.tar.gz`));
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  // Written beside the target and renamed at the end: a failed run never leaves a half file under the real name.
  const partial = `${target}.partial`;

  const state = await serverState(paths);
  if (state === 'unclean' && !force) throw new OperatorError(uncleanMessage(paths));
  try {
    if (state === 'running') {
      console.log(`The server is running: it makes the copy (${paths.socketPath}).`);
      await backupFromServer(paths, partial);
    } else {
      console.log(`No server is running: opening ${paths.dbDir} to copy it.`);
      await backupOffline(paths, partial);
    }
    const counts = await verify(partial);
    fs.renameSync(partial, target);
    console.log(
      `Backup written: ${target} (${(fs.statSync(target).size / 1024 / 1024).toFixed(1)} MB; ${describeCounts(counts)}).`,
    );
    console.log(
      'It holds personal data (customers, messages) and password hashes: keep it as private as the server. Copy it off this machine.',
    );
  } finally {
    fs.rmSync(partial, { force: true });
  }
});

function backupFromServer(paths: DataDirPaths, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: paths.socketPath, path: '/backup', method: 'POST', agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            reject(new OperatorError(`The server refused the backup (${response.statusCode}): ${body.trim()}`)),
          );
          return;
        }
        pipeline(response, fs.createWriteStream(file, { mode: 0o600 })).then(resolve, reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function backupOffline(paths: DataDirPaths, file: string): Promise<void> {
  const database = await openDatabase({ dataDir: paths.dbDir });
  try {
    const tarball = await database.dumpDataDir!();
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
  } finally {
    await database.close();
  }
}

/** Opens the copy in memory: a file that does not open is no backup. */
async function verify(file: string): Promise<Record<string, number>> {
  const pg = await openPglite(undefined, new Blob([fs.readFileSync(file)])).catch((error: unknown) => {
    throw new OperatorError(`The copy does not open as a database (${String(error)}): no backup was written.`);
  });
  try {
    return await rowCounts(pg);
  } finally {
    await pg.close();
  }
}
