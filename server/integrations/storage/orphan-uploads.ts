/**
 * Upload files a crash left behind, removed at start. An image is stored before the transaction that records
 * it (the file system is not part of the transaction), and a failed transaction removes its file; a crash in
 * between leaves either a temporary dot-file (killed mid-write) or a whole stored image that no row names.
 * Both hold a customer's or the salon's pictures, so they should not stay forever.
 *
 * Only what is provably orphaned goes: a temporary file no stored name can match, or a stored image that no
 * message, broadcast or visit photo row names (its preview goes with it). Both must also be old enough that no send still
 * in progress, on this instance or another sharing UPLOAD_DIR, can be about to commit or rename it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, lineMessages, visitPhotos } from '../../db/schema';
import { MEDIA_NAME_PATTERN, TEMPORARY_NAME_PATTERN } from './media-store';

/** A write in progress renames its temporary file within seconds. */
export const TEMPORARY_MIN_AGE_MS = 10 * 60 * 1000;
/** A send's transaction commits (or removes its image) long before this, even for a large bulk send. */
export const UNREFERENCED_MIN_AGE_MS = 60 * 60 * 1000;

interface SweepResult {
  temporary: string[];
  unreferenced: string[];
}

/**
 * Removes the orphaned files of `dir`. Every table that keeps a media URL must be read by
 * `referencedMediaBases`, or its images would look orphaned.
 */
export async function sweepOrphanUploads(options: {
  dir: string;
  db: Database;
  now?: () => Date;
}): Promise<SweepResult> {
  const now = (options.now ?? (() => new Date()))().getTime();
  const result: SweepResult = { temporary: [], unreferenced: [] };
  let names: string[];
  try {
    names = await fs.readdir(options.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result; // nothing uploaded yet
    throw error;
  }

  const stored: { name: string; base: string }[] = [];
  for (const name of names) {
    if (TEMPORARY_NAME_PATTERN.test(name)) {
      if (await olderThan(path.join(options.dir, name), now - TEMPORARY_MIN_AGE_MS)) result.temporary.push(name);
    } else if (MEDIA_NAME_PATTERN.test(name)) {
      stored.push({ name, base: name.slice(0, 32) });
    }
  }

  if (stored.length > 0) {
    const referenced = await referencedMediaBases(options.db);
    for (const { name, base } of stored) {
      if (referenced.has(base)) continue;
      if (await olderThan(path.join(options.dir, name), now - UNREFERENCED_MIN_AGE_MS)) result.unreferenced.push(name);
    }
  }

  for (const name of [...result.temporary, ...result.unreferenced]) {
    await fs.rm(path.join(options.dir, name), { force: true });
  }
  return result;
}

/**
 * The random part of every media name a row refers to. Read from the name at the end of the URL, not by
 * PUBLIC_URL: rows written under an earlier PUBLIC_URL still keep their files.
 */
async function referencedMediaBases(db: Database): Promise<Set<string>> {
  const rows = [
    ...(await db
      .selectDistinct({ image_url: lineMessages.image_url })
      .from(lineMessages)
      .where(ne(lineMessages.image_url, ''))),
    ...(await db
      .selectDistinct({ image_url: broadcasts.image_url })
      .from(broadcasts)
      .where(ne(broadcasts.image_url, ''))),
  ];
  const bases = new Set<string>();
  for (const row of rows) {
    const match = /\/media\/([0-9a-f]{32})[^/]*$/.exec(row.image_url);
    if (match) bases.add(match[1]!);
  }
  // カルテ photos (their own folder, karte-photos.ts) are named by file, not by URL.
  for (const row of await db.selectDistinct({ file_name: visitPhotos.file_name }).from(visitPhotos)) {
    bases.add(row.file_name.slice(0, 32));
  }
  return bases;
}

async function olderThan(filePath: string, cutoffMs: number): Promise<boolean> {
  try {
    const stat = await fs.lstat(filePath);
    return stat.isFile() && stat.mtimeMs < cutoffMs;
  } catch {
    return false; // gone already (another instance swept it)
  }
}
