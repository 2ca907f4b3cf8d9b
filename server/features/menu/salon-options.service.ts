import { MESSAGES } from '#src/shared/messages';
import type { SalonOption } from '#src/shared/schemas/menu';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http-errors';
import { patchOf } from './menu.service';
import * as repo from './option.repository';

type SalonOptionInput = { name: string; price: number; duration_minutes: number; service_ids: number[] };

/** The shape of GET /api/admin/options/: the price in yen as a number, the menus that allow it in menu order. */
function presentSalonOption(row: repo.LinkedOptionRow): SalonOption {
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    duration_minutes: row.duration_minutes,
    service_ids: row.service_ids,
    sort_order: row.sort_order,
  };
}

const servicesInvalid = () =>
  badRequest(MESSAGES.optionServicesInvalid, { service_ids: [MESSAGES.optionServicesInvalid] });

/**
 * The salon's options in one place (docs/screens.md#menu-management): one ジェルオフ, one price, allowed by every
 * menu that offers it. The per-menu calls (menu.service.ts) work on the same rows.
 */
export function createSalonOptionsService(deps: { db: Database; salonId: number }) {
  const { db, salonId } = deps;

  return {
    async list(): Promise<SalonOption[]> {
      return (await repo.listSalonOptions(db, salonId)).map(presentSalonOption);
    },

    /** 400 on `service_ids` when one of them is not an active menu of this salon; nothing is written then. */
    async create(input: SalonOptionInput): Promise<SalonOption> {
      const row = await repo.insertOption(db, {
        salonId,
        name: input.name,
        price: input.price,
        duration_minutes: input.duration_minutes,
        serviceIds: input.service_ids,
      });
      if (!row) throw servicesInvalid();
      return presentSalonOption(row);
    },

    /** Name, price and time apply to every menu that allows it; `service_ids` replaces that set. */
    async update(optionId: number, input: Partial<SalonOptionInput>): Promise<SalonOption> {
      const result = await repo.updateOption(db, { salonId, optionId }, patchOf(input), input.service_ids);
      if (result === 'not_found') throw notFound(MESSAGES.optionNotFound);
      if (result === 'services_invalid') throw servicesInvalid();
      return presentSalonOption(result);
    },

    /** Soft delete: every menu stops offering it; reservations keep their snapshot. */
    async remove(optionId: number): Promise<void> {
      if (!(await repo.deactivateOption(db, salonId, optionId))) throw notFound(MESSAGES.optionNotFound);
    },
  };
}
