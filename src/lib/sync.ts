import { loadDatabase } from './db-loader';
import { SyncHttpError, type PullResult, type SyncPull } from './sync-pulls';
import { getSyncSnapshot, updateSyncSnapshot } from './sync-state';
import { accessTokenOf, currentStaffId, staffSession } from './token-session';

/**
 * Keeps the local copy (src/lib/db.ts) current (docs/architecture.md#offline-design): on start, on `online` and on
 * focus. It knows no endpoint: the features declare what they pull (src/lib/sync-pulls.ts) and
 * src/app/offline/staff-offline.ts registers them here.
 *   - Lists that read deltas (reservations of a rolling window, 30 days back and 90 ahead; every customer in scope)
 *     are read in full the first time, once a day, when the window moved or another staff member signed in, and
 *     otherwise only what changed since their watermark (`updated_since`).
 *   - Small answers (the menu, the staff profile, the opening-time calendar) are read whole every time.
 * Rows seen twice are simply written twice.
 */

const WINDOW_PAST_DAYS = 30;
const WINDOW_FUTURE_DAYS = 90;
const FULL_SYNC_EVERY_MS = 24 * 60 * 60_000;
const META_KEY = 'sync';

interface SyncMeta {
  window: { from: string; to: string };
  /** Each pull's watermark, by its name. */
  since?: Record<string, string>;
  fullAt: number;
  lastSyncAt: number;
  staffId: number | null;
  /** Watermarks as versions before the pulls were declared by features kept them (`reservationsSince`, ...). */
  [legacy: string]: unknown;
}

interface SyncReport {
  full: boolean;
  /** Rows written, by pull. */
  counts: Record<string, number>;
  /** All rows written: a delta that wrote any refreshes the screens. */
  changed: number;
  ms: number;
}

const pad = (value: number) => String(value).padStart(2, '0');
const localDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The days the reservation copy covers, device-local (the front desk runs in the salon's zone). */
function reservationWindow(now = new Date()): { from: string; to: string } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - WINDOW_PAST_DAYS);
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + WINDOW_FUTURE_DAYS);
  return { from: localDate(from), to: localDate(to) };
}

let pulls: readonly SyncPull[] = [];

/** What every sync pulls (the features' declarations, in src/app/offline/staff-offline.ts). */
export function registerSyncPulls(declared: readonly SyncPull[]): void {
  pulls = declared;
}

const sinceOf = (meta: SyncMeta | undefined, name: string): string | null => {
  const kept = meta?.since?.[name] ?? meta?.[`${name}Since`];
  return typeof kept === 'string' ? kept : null;
};

/** Runs every pull, each as soon as the pulls it comes after are done; rejects with the first failure. */
async function runPulls(base: Omit<Parameters<SyncPull['run']>[0], 'since' | 'resultOf'>, meta: SyncMeta | undefined) {
  const results = new Map<string, Promise<PullResult>>();
  const resultOf = async (name: string) => (await results.get(name))?.value;
  for (const pull of pulls) {
    const since = base.full ? null : sinceOf(meta, pull.name);
    results.set(
      pull.name,
      Promise.all((pull.after ?? []).map((name) => results.get(name))).then(() =>
        pull.run({ ...base, since, resultOf }),
      ),
    );
  }
  // All awaited together: a failure of one is part of the same rejection rather than an unhandled one.
  const settled = await Promise.all([...results].map(async ([name, result]) => [name, await result] as const));
  return new Map(settled);
}

let running: Promise<SyncReport | null> | null = null;

/**
 * One sync (a call during a running one shares it). Resolves null when there was nothing to do it with (offline,
 * signed out); rejects only on unexpected errors (a network or server failure is noted in the sync snapshot).
 */
export function syncNow(options: { force?: boolean } = {}): Promise<SyncReport | null> {
  running ??= runSync(options.force ?? false).finally(() => {
    running = null;
  });
  return running;
}

async function runSync(force: boolean): Promise<SyncReport | null> {
  if (navigator.onLine === false || !accessTokenOf(staffSession)) return null;
  const started = performance.now();
  updateSyncSnapshot({ syncing: true });
  try {
    const db = await loadDatabase();
    const now = new Date();
    const window = reservationWindow(now);
    const meta = (await db.meta.get(META_KEY))?.value as SyncMeta | undefined;
    // The token's subject, not the profile: the lists need not wait for it.
    const staffId = currentStaffId();
    performance.mark('salon-sync-start');
    const full =
      force ||
      !meta ||
      meta.staffId !== staffId ||
      meta.window.from !== window.from ||
      meta.window.to !== window.to ||
      Date.now() - meta.fullAt > FULL_SYNC_EVERY_MS;
    const results = await runPulls({ db, full, window, now }, meta);
    const lastSyncAt = Date.now();
    const since: Record<string, string> = {};
    const counts: Record<string, number> = {};
    for (const [name, result] of results) {
      if (result.since) since[name] = result.since;
      if (result.count !== undefined) counts[name] = result.count;
    }
    await db.meta.put({
      key: META_KEY,
      value: { window, since, fullAt: full ? lastSyncAt : meta!.fullAt, lastSyncAt, staffId } satisfies SyncMeta,
    });
    performance.measure(full ? 'salon-sync-full' : 'salon-sync-delta', 'salon-sync-start');
    updateSyncSnapshot({ lastSyncAt, window, failed: false });
    const changed = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return { full, counts, changed, ms: performance.now() - started };
  } catch (error) {
    updateSyncSnapshot({ failed: true });
    if (error instanceof SyncHttpError) return null;
    throw error;
  } finally {
    updateSyncSnapshot({ syncing: false });
  }
}

/** Puts what the last sync left in IndexedDB into the snapshot (at start, before any network). */
export async function loadSyncState(): Promise<void> {
  const db = await loadDatabase();
  const meta = (await db.meta.get(META_KEY))?.value as SyncMeta | undefined;
  if (meta && getSyncSnapshot().lastSyncAt === null)
    updateSyncSnapshot({ lastSyncAt: meta.lastSyncAt, window: meta.window });
}
