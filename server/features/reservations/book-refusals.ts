/**
 * The answers to a customer booking that book_reservation() (server/db/migrations/0025_book_reservation.sql)
 * refused: it raises a SQLSTATE of class BK with the refusal's code as the message and, where the answer names
 * one, a number as the DETAIL. Each becomes exactly the 400/401/409/429 the booking has always answered with.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { badRequest, conflict, tokenNotValid, type ApiHttpError } from '../../http-errors';
import { throttled } from '../../plugins/rate-limit-counters';

/** The refusal codes book_reservation raises, each with the answer it gets (`figure`: the DETAIL's number). */
const ANSWERS: Record<string, (figure: number) => ApiHttpError> = {
  throttled: (retryAfter) => throttled(SERVER_MESSAGES.tooManyBookingChanges, retryAfter),
  // The token's customer is gone: the answer the auth plugin gives such a token (the booking route leaves the
  // customer's row to the function, server/plugins/auth.ts customerRowInHandler).
  customer_not_found: () => tokenNotValid(),
  off_grid: (grid) => {
    const message = grid === 30 ? SERVER_MESSAGES.offGridTime : SERVER_MESSAGES.offGridTimeFor(grid);
    return badRequest(message, { start_time: [message] });
  },
  past_start: () => badRequest(SERVER_MESSAGES.pastDateTime, { start_time: [SERVER_MESSAGES.pastDateTime] }),
  staff_not_bookable: () =>
    badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] }),
  email_address_limit: (limit) => {
    const message = SERVER_MESSAGES.emailAddressLimit(limit);
    return badRequest(message, { customer_email: [message] }, 'email_address_limit');
  },
  reservation_limit: (limit) => conflict(SERVER_MESSAGES.reservationLimit(limit), 'reservation_limit'),
  slot_unavailable: () => conflict(MESSAGES.slotUnavailable, 'slot_unavailable'),
  customer_overlap: () => conflict(SERVER_MESSAGES.customerTimeTaken, 'customer_overlap'),
};

/** The refusal a database error carries (SQLSTATE class BK), as its code and number; undefined for any other error. */
function bookingRefusal(error: unknown): { code: string; figure: number } | undefined {
  let current: unknown = error;
  // Drizzle wraps the driver's error in `cause`; both drivers put the SQLSTATE in `code`.
  for (let depth = 0; current && depth < 5; depth += 1) {
    const { code, message, detail } = current as { code?: unknown; message?: unknown; detail?: unknown };
    if (typeof code === 'string' && code.startsWith('BK') && typeof message === 'string') {
      return { code: message, figure: Number(detail ?? 0) };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The answer to a refused booking; an error that is not a refusal is thrown on unchanged. */
export function refusalAnswer(error: unknown): unknown {
  const refusal = bookingRefusal(error);
  const answer = refusal && ANSWERS[refusal.code];
  return answer ? answer(refusal.figure) : error;
}
