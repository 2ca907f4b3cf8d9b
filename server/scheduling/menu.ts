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
import { serviceOptions, services } from '../db/schema';
import { badRequest } from '../http-errors';

export type ServiceRow = typeof services.$inferSelect;
export type ServiceOptionRow = typeof serviceOptions.$inferSelect;
export type ServiceWithOptions = typeof services.$inferSelect & { options: ServiceOptionRow[] };

/** The active services in menu order, each with its active options in menu order. */
export async function listActiveServices(db: Executor, salonId: number): Promise<ServiceWithOptions[]> {
  const [serviceRows, optionRows] = await Promise.all([
    db
      .select()
      .from(services)
      .where(and(eq(services.salon_id, salonId), eq(services.is_active, true)))
      .orderBy(asc(services.sort_order), asc(services.id)),
    db
      .select()
      .from(serviceOptions)
      .where(and(eq(serviceOptions.salon_id, salonId), eq(serviceOptions.is_active, true)))
      .orderBy(asc(serviceOptions.sort_order), asc(serviceOptions.id)),
  ]);
  return serviceRows.map((service) => ({
    ...service,
    options: optionRows.filter((option) => option.service_id === service.id),
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
