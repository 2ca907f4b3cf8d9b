import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http-errors';
import type { serviceOptions } from '../../db/schema';
import * as repo from './menu.repository';

type ServiceOptionRow = typeof serviceOptions.$inferSelect;

type ServiceInput = { name: string; price: number; duration_minutes: number; salon?: number };

/** The shape of GET /api/services/: the price as a numeric string (docs/architecture.md#screens-and-texts). */
export function presentService(row: repo.ServiceRow, options: ServiceOptionRow[] = []): Service {
  return {
    id: row.id,
    name: row.name,
    price: String(row.price),
    duration_minutes: row.duration_minutes,
    salon: row.salon_id,
    options: options.map((option) => ({
      id: option.id,
      name: option.name,
      price: String(option.price),
      duration_minutes: option.duration_minutes,
    })),
  };
}

/** An id from the URL: anything that is not a positive int4 names no service (404, never a 500 from the cast). */
export function parseServiceId(raw: string): number {
  if (!/^\d{1,10}$/.test(raw)) throw notFound(MESSAGES.serviceNotFound);
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw notFound(MESSAGES.serviceNotFound);
  return id;
}

/** The menu (docs/architecture.md#screens-and-texts): staff add, edit and remove services of this salon. */
export function createMenuService(deps: { db: Database; salonId: number }) {
  const { db, salonId } = deps;

  // The admin screen sends `salon: 1` (docs/architecture.md#screens-and-texts); any other salon is not ours to edit.
  function checkSalon(salon: number | undefined) {
    if (salon !== undefined && salon !== salonId) {
      throw badRequest(MESSAGES.salonNotFound, { salon: [MESSAGES.salonNotFound] });
    }
  }

  return {
    async create(input: ServiceInput): Promise<Service> {
      checkSalon(input.salon);
      const row = await repo.insertService(db, {
        salonId,
        name: input.name,
        price: input.price,
        durationMinutes: input.duration_minutes,
      });
      return presentService(row);
    },

    async update(serviceId: number, input: Partial<ServiceInput>): Promise<Service> {
      checkSalon(input.salon);
      const patch = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.price !== undefined && { price: input.price }),
        ...(input.duration_minutes !== undefined && { duration_minutes: input.duration_minutes }),
      };
      const row =
        Object.keys(patch).length > 0
          ? await repo.updateActiveService(db, salonId, serviceId, patch)
          : await repo.findActiveService(db, salonId, serviceId);
      if (!row) throw notFound(MESSAGES.serviceNotFound);
      return presentService(row);
    },

    async remove(serviceId: number): Promise<void> {
      if (!(await repo.deactivateService(db, salonId, serviceId))) throw notFound(MESSAGES.serviceNotFound);
    },
  };
}
