import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import type { Closing } from '#src/shared/schemas/register';
import { instantToLocalDateTime } from '#src/shared/time';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState } from '../../db/client';
import { badRequest, conflict } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './checkouts.repository';
import { businessDateOf } from './register-day';
import { dayCash } from './takings';

export function presentClosing(row: repo.ClosingRow, timeZone: string): Closing {
  return {
    date: row.business_date,
    opening_float: row.opening_float,
    cash_received: row.cash_received,
    change_given: row.change_given,
    cash_refunded: row.cash_refunded,
    expected_cash: row.expected_cash,
    counted_cash: row.counted_cash,
    difference: row.counted_cash - row.expected_cash,
    totals_by_method: row.totals_by_method,
    memo: row.memo,
    staff_id: row.staff_id,
    closed_at: instantToLocalDateTime(row.created_at, timeZone),
  };
}

/**
 * POST /api/admin/register-closings/ (レジ締め), a superuser action: counts the day's drawer and locks the day. It
 * takes the salon row exclusively for the register (checkouts and corrections take it shared), so it counts every
 * record committed before it and none can be added to the day after it. One per day: the unique index makes a
 * second (or a concurrent twin) a 409.
 */
export function closeRegisterUseCase(ctx: AppContext) {
  const timeZone = ctx.env.SALON_TZ;

  return async function closeRegister(
    staff: StaffPrincipal,
    body: { date: string; counted_cash: number; memo?: string },
  ): Promise<Closing> {
    if (body.date > businessDateOf(ctx.now(), timeZone)) {
      throw badRequest(REGISTER_MESSAGES.registerCloseFutureDate, {
        date: [REGISTER_MESSAGES.registerCloseFutureDate],
      });
    }
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const salon = await repo.lockSalonForRegister(tx, ctx.salonId, 'close');
        if (await repo.findClosing(tx, ctx.salonId, body.date)) {
          throw conflict(REGISTER_MESSAGES.registerAlreadyClosed, 'already_closed');
        }
        const day = { salonId: ctx.salonId, from: body.date, to: body.date };
        const cash = dayCash(
          salon.opening_float,
          await repo.listCheckouts(tx, day),
          await repo.correctionsOnDays(tx, day),
        );
        return repo.insertClosing(tx, {
          salon_id: ctx.salonId,
          business_date: body.date,
          opening_float: salon.opening_float,
          ...cash,
          counted_cash: body.counted_cash,
          memo: body.memo ?? '',
          staff_id: staff.id,
          created_at: ctx.now(),
        });
      });
      return presentClosing(row, timeZone);
    } catch (error) {
      if (sqlState(error) === SQLSTATE.uniqueViolation)
        throw conflict(REGISTER_MESSAGES.registerAlreadyClosed, 'already_closed');
      throw error;
    }
  };
}
