// npm run restore -- <file> [--force]: puts a backup made by `npm run backup` back as the embedded database
// (DATA_DIR/db). Only while the server is stopped: it reads its database only at start, and would go on writing
// into the one it has open. The current database is kept aside (DATA_DIR/db.before-restore-<time>), never deleted.
import fs from 'node:fs';
import path from 'node:path';
import {
  dataDirPaths,
  describeCounts,
  openPglite,
  OperatorError,
  publicTables,
  refuseWhenPostgres,
  rowCounts,
  runCommand,
  serverState,
  timestamp,
  uncleanMessage,
} from './lib/embedded-database';

const args = process.argv.slice(2);
const force = args.includes('--force');
const fileArgument = args.find((arg) => !arg.startsWith('--'));

runCommand(async () => {
  refuseWhenPostgres('Restore it with pg_restore');
  if (!fileArgument) throw new OperatorError('Which backup? Usage: npm run restore -- <backup file>');
  const file = path.resolve(fileArgument);
  if (!fs.existsSync(file)) throw new OperatorError(`No such file: ${file}`);
  const paths = dataDirPaths();

  const state = await serverState(paths);
  if (state === 'running') {
    throw new OperatorError(
      `The server is running on ${paths.dataDir}: stop it first (e.g. systemctl stop salon), then run the restore again. Nothing was changed.`,
    );
  }
  if (state === 'unclean' && !force) throw new OperatorError(uncleanMessage(paths));

  // The backup is unpacked into a folder beside the database and opened there first: a file that is not a
  // backup of this app is refused before anything is moved.
  fs.mkdirSync(paths.dataDir, { recursive: true });
  const incoming = `${paths.dbDir}.restoring`;
  fs.rmSync(incoming, { recursive: true, force: true });
  let counts: Record<string, number>;
  try {
    const pg = await openPglite(incoming, new Blob([fs.readFileSync(file)])).catch((error: unknown) => {
      throw new OperatorError(`${file} does not open as a database (${String(error)}). Nothing was changed.`);
    });
    try {
      const tables = await publicTables((sql) => pg.query(sql));
      if (!tables.includes('salons') || !tables.includes('reservations')) {
        throw new OperatorError(
          `${file} is a database, but not this app's (no salons or reservations table). Nothing was changed.`,
        );
      }
      counts = await rowCounts(pg);
    } finally {
      await pg.close();
    }
  } catch (error) {
    fs.rmSync(incoming, { recursive: true, force: true });
    throw error;
  }

  let keptAside: string | null = null;
  if (fs.existsSync(paths.dbDir)) {
    keptAside = `${paths.dbDir}.before-restore-${timestamp()}`;
    fs.renameSync(paths.dbDir, keptAside);
  }
  fs.renameSync(incoming, paths.dbDir);
  console.log(`Restored ${file} into ${paths.dbDir} (${describeCounts(counts)}).`);
  if (keptAside)
    console.log(`The database it replaced is kept in ${keptAside}; delete it once the restored one looks right.`);
  console.log('Start the server again; it applies any newer migrations at start.');
});
