import { normalisePhone, searchFold } from '../../shared/kana';
import { normalizeReservationCode } from '../../shared/reservation-code';
import type { Reservation } from '../../shared/schemas/reservations';

/**
 * The staff search box (docs/screens.md#admin-reservation-list, #admin-day-board): what was typed, as the list's
 * query. A 予約コード (any case, with or without a hyphen or spaces) is looked up by itself, whatever the other
 * filters say: it names one booking. Anything else is a name, furigana or phone number (GET ...?q=).
 */
export type ReservationSearch = { code: string } | { q: string } | null;

export function parseReservationSearch(typed: string): ReservationSearch {
  const text = typed.trim();
  if (!text) return null;
  const code = normalizeReservationCode(text);
  return code ? { code } : { q: text };
}

/**
 * GET /api/admin/reservations/?q= as the server matches it (reservations.repository.ts reservationTextMatch), for the
 * offline reader: name or furigana folded alike, or the phone's digits containing the typed digits.
 */
export function matchesReservationText(reservation: Reservation, text: string): boolean {
  const folded = searchFold(text);
  if (searchFold(reservation.customer_name).includes(folded)) return true;
  if (searchFold(reservation.customer_furigana).includes(folded)) return true;
  const digits = normalisePhone(text);
  return /^[0-9]+$/.test(digits) && reservation.customer_phone.replace(/[^0-9]/g, '').includes(digits);
}
