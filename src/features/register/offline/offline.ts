import type { StaffDatabase } from '#src/lib/db';
import { answerByUrl, type OfflineFeature } from '#src/lib/offline-engine';
import { bookingLines } from '#src/shared/money/booking-lines';
import type { Reservation } from '#src/shared/schemas/reservations';
import { checkoutChange } from './checkout-change';

/** Query roots of the register: its data, and the checkout drafts that answer from the device's reservations. */
export const REGISTER_ROOT = 'register';
export const REGISTER_DRAFT_ROOT = 'register-draft';

/**
 * GET /api/admin/reservations/{n}/checkout-draft/ from the device's copy of the reservation: the same lines as the
 * server's draft (src/shared/money/booking-lines.ts), so that a booking can be checked out without a connection.
 */
async function localDraft(db: StaffDatabase, reservationNumber: string) {
  const row = (await db.reservations.get(reservationNumber.toLowerCase())) as Reservation | undefined;
  if (!row) return undefined;
  return {
    reservation_number: row.reservation_number,
    customer_id: row.customer_id,
    staff_id: row.staff_id,
    lines: bookingLines({
      serviceId: row.service.id,
      serviceName: row.service_name,
      price: Number(row.service.price),
      options: row.options.map((option) => ({ id: option.id, name: option.name, price: Number(option.price) })),
      isNominated: row.is_nominated,
      nominationFee: Number(row.nomination_fee),
      staffId: row.staff_id,
    }),
  };
}

/**
 * The register at the front desk without a connection (docs/architecture.md#register-会計): the settings (tax
 * rounding, the salon's name and 登録番号 for the receipt) and the catalogue as last seen, a booking's lines from
 * the device's reservations, and checkouts that wait in the outbox.
 */
export const registerOffline: OfflineFeature = {
  name: 'register',
  persistedRoots: [REGISTER_ROOT, REGISTER_DRAFT_ROOT],
  localFirstRoots: [REGISTER_ROOT, REGISTER_DRAFT_ROOT],
  routes: [
    answerByUrl('responses', '/api/admin/settings/'),
    answerByUrl('responses', '/api/admin/products/'),
    {
      path: /^\/api\/admin\/reservations\/([^/]+)\/checkout-draft\/$/,
      read: (db, _url, [number]) => localDraft(db, number!),
    },
  ],
  changes: [checkoutChange],
};
