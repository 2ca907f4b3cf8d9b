/**
 * Autovacuum's work for the embedded database. PGlite is PostgreSQL's single-user mode, which runs no background
 * workers: without this, its planner statistics would stay those of the first day, no page would ever be marked
 * all-visible (so the customer search's index-only scan would visit the table for every match, decision 0018), and
 * dead row versions would only be reclaimed page by page. Once a night, at MAINTENANCE_HOUR salon time when nobody
 * books, the server runs VACUUM (ANALYZE); it blocks the embedded database for its length (a few seconds at
 * 500,000 reservations), which the log line reports. PostgreSQL has its own autovacuum: nothing runs there.
 */
import { sql } from 'drizzle-orm';
import { addDaysToDate, localDateOf, localDateTimeToInstant } from '#src/shared/time';
import type { DatabaseHandle } from './client';

const MAINTENANCE_HOUR = 4;

interface MaintenanceLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The first MAINTENANCE_HOUR:00 in the salon's zone strictly after `now`. */
export function nextMaintenanceAt(now: Date, timeZone: string): Date {
  const time = `T${String(MAINTENANCE_HOUR).padStart(2, '0')}:00:00`;
  const today = localDateOf(now, timeZone);
  const atToday = localDateTimeToInstant(`${today}${time}`, timeZone);
  return atToday > now ? atToday : localDateTimeToInstant(`${addDaysToDate(today, 1)}${time}`, timeZone);
}

/** VACUUM (ANALYZE) of the whole database. */
export async function vacuumDatabase(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql`VACUUM (ANALYZE)`);
}

/**
 * Runs vacuumDatabase every night on the embedded engine; `stop` cancels the next run and waits for one under way
 * (the database closes after it). A no-op on PostgreSQL.
 */
export function scheduleEmbeddedMaintenance(input: {
  database: DatabaseHandle;
  timeZone: string;
  now: () => Date;
  logger: MaintenanceLogger;
}): { stop(): Promise<void> } {
  if (input.database.engine !== 'pglite') return { stop: async () => {} };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  const planNext = () => {
    if (stopped) return;
    const now = input.now();
    const delay = Math.max(1000, nextMaintenanceAt(now, input.timeZone).getTime() - now.getTime());
    timer = setTimeout(() => {
      running = run();
    }, delay);
    // The process may exit in between (a test, a stop): a pending night's run never holds it open.
    timer.unref();
  };
  const run = async () => {
    const started = performance.now();
    try {
      await vacuumDatabase(input.database);
      input.logger.info({ ms: Math.round(performance.now() - started) }, 'embedded database vacuumed and analyzed');
    } catch (error) {
      input.logger.error({ err: error }, 'embedded database maintenance failed');
    }
    planNext();
  };
  planNext();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
