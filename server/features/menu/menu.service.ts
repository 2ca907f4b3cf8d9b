import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http-errors';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';
import { presentOption, presentService } from '../../scheduling/menu';
import * as repo from './menu.repository';
import * as options from './option.repository';

type ServiceInput = {
  name: string;
  price: number;
  duration_minutes: number;
  salon?: number;
  rebook_cycle_days?: number | null;
};
type OptionInput = { name: string; price: number; duration_minutes: number };

/** An id from the URL: anything that is not a positive int4 names nothing (404, never a 500 from the cast). */
function parseId(raw: string, message: string): number {
  if (!/^\d{1,10}$/.test(raw)) throw notFound(message);
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw notFound(message);
  return id;
}

export const parseServiceId = (raw: string) => parseId(raw, SERVER_MESSAGES.serviceNotFound);
export const parseOptionId = (raw: string) => parseId(raw, MESSAGES.optionNotFound);

/** Only the fields a PATCH sent: an absent one is left as it is. */
export function patchOf(input: Partial<OptionInput>) {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.price !== undefined && { price: input.price }),
    ...(input.duration_minutes !== undefined && { duration_minutes: input.duration_minutes }),
  };
}

/** The menu (docs/screens.md#menu-management): staff add, edit and remove services of this salon. */
export function createMenuService(deps: { db: Database; salonId: number }) {
  const { db, salonId } = deps;

  // The admin screen sends `salon: 1` (docs/screens.md#menu-management); any other salon is not ours to edit.
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
        rebookCycleDays: input.rebook_cycle_days ?? null,
      });
      return presentService(row);
    },

    async update(serviceId: number, input: Partial<ServiceInput>): Promise<Service> {
      checkSalon(input.salon);
      const patch = {
        ...patchOf(input),
        ...(input.rebook_cycle_days !== undefined && { rebook_cycle_days: input.rebook_cycle_days }),
      };
      const row =
        Object.keys(patch).length > 0
          ? await repo.updateActiveService(db, salonId, serviceId, patch)
          : await repo.findActiveService(db, salonId, serviceId);
      if (!row) throw notFound(SERVER_MESSAGES.serviceNotFound);
      // The answer has the shape of the menu's entries, options included, so the screen can use it as it is.
      return presentService(row, await options.listOptionsOfService(db, salonId, serviceId));
    },

    async remove(serviceId: number): Promise<void> {
      if (!(await repo.deactivateService(db, salonId, serviceId))) throw notFound(SERVER_MESSAGES.serviceNotFound);
    },

    /**
     * A new option of the salon, allowed by this service (the salon's option list, GET /api/admin/options/, offers
     * it to other menus too); 404 when the service is not an active one of this salon.
     */
    async createOption(serviceId: number, input: OptionInput): Promise<ServiceOption> {
      const row = await options.insertOption(db, { salonId, serviceIds: [serviceId], ...input });
      if (!row) throw notFound(SERVER_MESSAGES.serviceNotFound);
      return presentOption(row);
    },

    /**
     * Edits an option this service allows, for every menu that allows it. Reservations already made keep their
     * snapshot; new bookings and availability use the new price and time. 404 when this service does not allow it.
     */
    async updateOption(serviceId: number, optionId: number, input: Partial<OptionInput>): Promise<ServiceOption> {
      const row = await options.updateOptionOfService(db, { salonId, serviceId, optionId }, patchOf(input));
      if (!row) throw notFound(MESSAGES.optionNotFound);
      return presentOption(row);
    },

    /** Takes the option off this menu only; it is deleted once no menu allows it (option.repository.ts). */
    async removeOption(serviceId: number, optionId: number): Promise<void> {
      if (!(await options.unlinkOption(db, { salonId, serviceId, optionId }))) {
        throw notFound(MESSAGES.optionNotFound);
      }
    },
  };
}
