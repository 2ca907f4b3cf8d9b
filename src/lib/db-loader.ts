import type { StaffDatabase } from './db';

let databasePromise: Promise<StaffDatabase> | null = null;

/**
 * The one Dexie instance (src/lib/db.ts), loaded on first use: modules of the admin screens' first chunk reach
 * the database through this, so that Dexie arrives in a chunk of its own after the first paint.
 */
export function loadDatabase(): Promise<StaffDatabase> {
  databasePromise ??= import('./db').then((module) => module.db);
  return databasePromise;
}
