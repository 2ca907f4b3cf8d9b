/**
 * The menu as booking sees it: the active services with their options, how they are presented, and the check of a
 * requested service with options. Shared by the booking, menu and reservations features (which never import each
 * other, docs/architecture.md#layout-and-boundaries).
 */
import { and, asc, eq } from 'drizzle-orm';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';
import type { BookingLength } from '#src/shared/slots';
import type { Executor } from '../db/client';
import { serviceOptionLinks, serviceOptions, services } from '../db/schema';
import { badRequest } from '../http-errors';

export type ServiceRow = typeof services.$inferSelect;
export type ServiceOptionRow = typeof serviceOptions.$inferSelect;
export type ServiceWithOptions = typeof services.$inferSelect & { options: ServiceOptionRow[] };

/**
 * The active services in menu order, each with the active options it allows (service_option_links) in menu order.
 * One option allowed by several services is listed under each of them.
 */
export async function listActiveServices(db: Executor, salonId: number): Promise<ServiceWithOptions[]> {
  const [serviceRows, linkedOptions] = await Promise.all([
    db
      .select()
      .from(services)
      .where(and(eq(services.salon_id, salonId), eq(services.is_active, true)))
      .orderBy(asc(services.sort_order), asc(services.id)),
    db
      .select({ service_id: serviceOptionLinks.service_id, option: serviceOptions })
      .from(serviceOptionLinks)
      .innerJoin(serviceOptions, eq(serviceOptions.id, serviceOptionLinks.option_id))
      .where(and(eq(serviceOptions.salon_id, salonId), eq(serviceOptions.is_active, true)))
      .orderBy(asc(serviceOptions.sort_order), asc(serviceOptions.id)),
  ]);
  return serviceRows.map((service) => ({
    ...service,
    options: linkedOptions.filter((link) => link.service_id === service.id).map((link) => link.option),
  }));
}

/** The shape of GET /api/services/: the price as a numeric string (docs/screens.md#booking-service-step). */
export function presentService(row: ServiceRow, options: ServiceOptionRow[] = []): Service {
  return {
    id: row.id,
    name: row.name,
    price: String(row.price),
    duration_minutes: row.duration_minutes,
    salon: row.salon_id,
    rebook_cycle_days: row.rebook_cycle_days,
    options: options.map(presentOption),
  };
}

/** An option as GET /api/services/ lists it under its service: the price as a numeric string too. */
export function presentOption(row: ServiceOptionRow): ServiceOption {
  return { id: row.id, name: row.name, price: String(row.price), duration_minutes: row.duration_minutes };
}

/** A service with chosen options, as availability and booking use it. */
export interface MenuChoice {
  service: ServiceWithOptions;
  options: ServiceOptionRow[];
  length: BookingLength;
}

/**
 * The service and options a request names, checked against the active menu: an unknown or inactive service, or an
 * option that service does not allow (or an inactive one), is a 400 on the named field. One place for every caller
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
  if (!service)
    throw badRequest(SERVER_MESSAGES.serviceNotFound, { [request.serviceField]: [SERVER_MESSAGES.serviceNotFound] });
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
