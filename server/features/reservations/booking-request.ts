/**
 * What a requested booking or move becomes before any time is claimed: the start checked against the salon's grid
 * and the clock, the menu choice resolved with its length, and the snapshot a new reservation keeps of them.
 */
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { timeToMinutes } from '#src/shared/slots';
import { localDateTimeToInstant } from '#src/shared/time';
import type { ReservationOptionSnapshot } from '../../db/schema';
import { badRequest } from '../../http-errors';
import { resolveMenuChoice, type MenuChoice } from '../../scheduling/menu';
import { salonSettings, type ReservationsContext } from './reservations.context';

/** Parses and checks a requested start: on the salon's grid and not in the past. */
export async function parseStart(ctx: ReservationsContext, localStart: string) {
  const grid = (await salonSettings(ctx)).slot_minutes;
  if (timeToMinutes(localStart.slice(11, 16)) % grid !== 0 || localStart.slice(17, 19) !== '00') {
    const message = grid === 30 ? SERVER_MESSAGES.offGridTime : SERVER_MESSAGES.offGridTimeFor(grid);
    throw badRequest(message, { start_time: [message] });
  }
  const start = localDateTimeToInstant(localStart, ctx.timeZone);
  if (start <= ctx.now())
    throw badRequest(SERVER_MESSAGES.pastDateTime, { start_time: [SERVER_MESSAGES.pastDateTime] });
  return { start, date: localStart.slice(0, 10), time: localStart.slice(11, 16) };
}

/** The active service with its chosen options and the time they hold; `serviceField` names the field in a 400. */
export function menuChoice(
  ctx: ReservationsContext,
  serviceId: number,
  optionIds: readonly number[],
  serviceField: string,
) {
  return resolveMenuChoice(ctx.availability, { serviceId, optionIds, serviceField });
}

/** What a reservation keeps of its menu choice and 指名 when booked: later menu edits do not rewrite it. */
export function snapshot(
  ctx: ReservationsContext,
  choice: MenuChoice,
  start: Date,
  nomination: { fee: number } | undefined,
) {
  const options: ReservationOptionSnapshot[] = choice.options.map((option) => ({
    id: option.id,
    name: option.name,
    price: option.price,
    duration_minutes: option.duration_minutes,
  }));
  const fee = nomination?.fee ?? 0;
  return {
    salon_id: ctx.salonId,
    service_id: choice.service.id,
    start_time: start,
    end_time: new Date(start.getTime() + choice.length.servedMinutes * 60_000),
    occupied_until: new Date(start.getTime() + choice.length.occupiedMinutes * 60_000),
    service_name: choice.service.name,
    price: choice.service.price + options.reduce((sum, option) => sum + option.price, 0) + fee,
    duration_minutes: choice.length.servedMinutes,
    options,
    is_nominated: nomination !== undefined,
    nomination_fee: fee,
  };
}
