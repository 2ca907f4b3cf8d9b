/**
 * What the server keeps in DATA_DIR (the embedded database, uploads, signing keys, backups, the first-start
 * password) is for this user alone: folders 0700, files 0600. The process runs with umask 077 (server.ts sets it
 * before anything is written), which covers every file Node creates. It does not cover what the embedded engine
 * writes: PGlite sets the modes of its files itself (0666 for most of the ~1,000 files of a new cluster, 0644 for
 * some it rewrites at every open, whatever the umask), and a folder left by an earlier start (or made by hand) may be
 * 0755. So at every start, once the database is open and migrated, the whole tree is walked and every group and
 * other permission bit taken away.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The umask of the server process: nothing it creates is readable or writable by group or others. */
export const PRIVATE_UMASK = 0o077;

interface ClosedTree {
  /** Entries whose mode was changed. */
  changed: number;
  /** Entries that could not be changed (another user's file), with the reason. */
  failed: string[];
}

/**
 * Takes group and other permissions from `root` and everything under it (symbolic links are neither followed nor
 * changed). Synchronous: it runs at start, before the server listens, over about a thousand entries.
 */
export function closeToOthers(root: string): ClosedTree {
  const result: ClosedTree = { changed: 0, failed: [] };
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(entry, stat.mode & 0o700);
        result.changed += 1;
      } catch (error) {
        result.failed.push(`${entry}: ${(error as Error).message}`);
      }
    }
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = fs.readdirSync(entry);
    } catch {
      return;
    }
    for (const name of names) visit(path.join(entry, name));
  };
  visit(root);
  return result;
}
