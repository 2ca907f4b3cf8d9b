import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import { localDateOf } from '#src/shared/time';
import type { Executor } from '../../db/client';
import { conflict, notFound } from '../../http-errors';
import * as repo from './checkouts.repository';

/** The salon-local day a register record made now belongs to. */
export const businessDateOf = (now: Date, timeZone: string) => localDateOf(now, timeZone);

/**
 * Inside a checkout's or a correction's transaction: takes the register's shared lock on the salon row and refuses
 * (409 `day_closed`) when the day already has its closing. The closing takes the same row exclusively
 * (close-register.ts), so the two can never pass each other. Returns the salon's settings as they are now.
 */
export async function openRegisterDay(tx: Executor, salonId: number, date: string): Promise<repo.SalonRow> {
  const salon = await repo.lockSalonForRegister(tx, salonId, 'share');
  if (await repo.findClosing(tx, salonId, date)) throw conflict(REGISTER_MESSAGES.registerDayClosed, 'day_closed');
  return salon;
}

/** Whether a database error is a violation of this constraint or unique index (Drizzle wraps it in `cause`). */
export function violates(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const { constraint: name, message } = current as { constraint?: unknown; message?: unknown };
    if (name === constraint || (typeof message === 'string' && message.includes(`"${constraint}"`))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** An id from the URL: anything that is not a positive int4 names nothing (404, never a 500 from the cast). */
export function parseId(raw: string, message: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > 2_147_483_647) throw notFound(message);
  return id;
}
