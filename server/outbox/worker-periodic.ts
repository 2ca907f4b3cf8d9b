/**
 * What the outbox worker's polling loop (worker.ts) queues besides sending: day-before reminders and
 * 再来店のご案内 every few minutes, and キャンセル待ち offers after a wake() or every minute. Each runs on its own
 * interval, measured on the process clock.
 */
import type { OpenStartsFinder } from '../scheduling/open-starts';
import { enqueueDueRebookingPrompts } from './rebooking';
import { enqueueDueReminders } from './reminders';
import { sweepWaitlist } from './waitlist-offers';
import type { DeliveryContext } from './worker-delivery';

export interface ReminderLoopOptions {
  /** How often the worker looks for reservations that need a reminder. Default 5 minutes. */
  intervalMs?: number;
  fromHour?: number;
  untilHour?: number;
}

export interface WaitlistLoopOptions {
  findOpenStarts: OpenStartsFinder;
  /** How often the loop sweeps without a wake(). Default 60 s. */
  intervalMs?: number;
}

/** The loop's periodic work and when it last ran. */
interface PeriodicWork {
  /** null: this worker queues no reminders. */
  reminders: (ReminderLoopOptions & { intervalMs: number }) | null;
  /** undefined: this worker offers nothing. */
  waitlist: WaitlistLoopOptions | undefined;
  lastReminderRun: number;
  /** Set by wake(): a cancel or move may have freed a start someone waits for. */
  waitlistSweepRequested: boolean;
  lastWaitlistSweep: number;
}

export function periodicWork(options: {
  reminders?: ReminderLoopOptions | false;
  waitlist?: WaitlistLoopOptions;
}): PeriodicWork {
  return {
    reminders: options.reminders === false ? null : { intervalMs: 5 * 60 * 1000, ...options.reminders },
    waitlist: options.waitlist,
    lastReminderRun: Number.NEGATIVE_INFINITY,
    waitlistSweepRequested: true,
    lastWaitlistSweep: Number.NEGATIVE_INFINITY,
  };
}

/** Runs whatever periodic work is due; a failure is the caller's (the poll logs it and tries at the next one). */
export async function runDuePeriodicWork(ctx: DeliveryContext, work: PeriodicWork): Promise<void> {
  const { reminders } = work;
  if (reminders && Date.now() - work.lastReminderRun >= reminders.intervalMs) {
    work.lastReminderRun = Date.now();
    const queued = await enqueueDueReminders(ctx.db, {
      now: ctx.now(),
      timeZone: ctx.timeZone,
      fromHour: reminders.fromHour,
      untilHour: reminders.untilHour,
    });
    if (queued > 0) ctx.logger.info({ reservations: queued }, 'reminders queued');
    // 再来店のご案内 (rebooking.ts) ride on the same loop: same interval, same once-only marking.
    const prompted = await enqueueDueRebookingPrompts(ctx.db, {
      now: ctx.now(),
      timeZone: ctx.timeZone,
      publicUrl: ctx.publicUrl,
    });
    if (prompted > 0) ctx.logger.info({ visits: prompted }, 'rebooking prompts queued');
  }
  const waitlistIntervalMs = work.waitlist?.intervalMs ?? 60_000;
  if (work.waitlistSweepRequested || Date.now() - work.lastWaitlistSweep >= waitlistIntervalMs) {
    await sweepWaitlistOffers(ctx, work);
  }
}

/** Queues キャンセル待ち offers for starts that opened; never throws (the messages already due still go out). */
export async function sweepWaitlistOffers(ctx: DeliveryContext, work: PeriodicWork): Promise<void> {
  if (!work.waitlist) return;
  work.waitlistSweepRequested = false;
  work.lastWaitlistSweep = Date.now();
  try {
    const offered = await sweepWaitlist(ctx.db, {
      now: ctx.now(),
      timeZone: ctx.timeZone,
      publicUrl: ctx.publicUrl,
      findOpenStarts: work.waitlist.findOpenStarts,
    });
    if (offered > 0) ctx.logger.info({ entries: offered }, 'waitlist offers queued');
  } catch (error) {
    // Offers wait for the next sweep; the messages already due still go out.
    ctx.logger.error({ err: (error as Error).message }, 'waitlist sweep failed');
  }
}
