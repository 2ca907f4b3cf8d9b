import { MESSAGES } from '#src/shared/messages';
import type { BookingLength } from '#src/shared/slots';
import { badRequest } from '../../http-errors';
import type { ServiceOptionRow, ServiceWithOptions } from './booking.repository';

/** A service with chosen options, as availability and booking use it. */
export interface MenuChoice {
  service: ServiceWithOptions;
  options: ServiceOptionRow[];
  length: BookingLength;
}

/**
 * The service and options a request names, checked against the active menu: an unknown or inactive service, or an
 * option that is not one of that service's active options, is a 400 on the named field. One place for every caller
 * (availability, bookable dates, customer and staff bookings).
 */
export async function resolveMenuChoice(
  deps: {
    activeServices(): Promise<ServiceWithOptions[]>;
    lengthOf(serviceMinutes: number, optionMinutes: readonly number[]): Promise<BookingLength>;
  },
  request: { serviceId: number; optionIds: readonly number[]; serviceField: string },
): Promise<MenuChoice> {
  const service = (await deps.activeServices()).find((row) => row.id === request.serviceId);
  if (!service) throw badRequest(MESSAGES.serviceNotFound, { [request.serviceField]: [MESSAGES.serviceNotFound] });
  const options = request.optionIds.map((id) => service.options.find((option) => option.id === id));
  if (options.some((option) => option === undefined)) {
    throw badRequest(MESSAGES.optionNotFound, { option_ids: [MESSAGES.optionNotFound] });
  }
  const chosen = options as ServiceOptionRow[];
  const length = await deps.lengthOf(
    service.duration_minutes,
    chosen.map((option) => option.duration_minutes),
  );
  return { service, options: chosen, length };
}
