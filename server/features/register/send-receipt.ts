/**
 * Sends a checkout's receipt to its customer (POST /api/admin/checkouts/{id}/send-receipt/): one outbox row, by
 * e-mail to the customer's address or by LINE to their linked account. A LINE row is counted in the month's push
 * budget by the worker like every other push (server/outbox/line-budget.ts), and over the budget goes by e-mail
 * instead through the same diversion, with the e-mail rendered here.
 */
import { and, eq } from 'drizzle-orm';
import { receiptText } from '#src/shared/money/receipt-text';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import type { Checkout } from '#src/shared/schemas/register';
import type { AppContext } from '../../context';
import { customers } from '../../db/schema';
import { conflict } from '../../http-errors';
import { enqueueNotification } from '../../outbox/outbox';
import type { EmailPayload } from '../../outbox/payloads';
import * as repo from './checkouts.repository';

type ReceiptChannel = 'email' | 'line';

/** Where the receipt goes: the customer's address on that channel, or a 409 saying what is missing. */
async function recipientOf(ctx: AppContext, checkout: Checkout, channel: ReceiptChannel): Promise<string> {
  if (checkout.customer_id === null) throw conflict(REGISTER_MESSAGES.receiptNoCustomer, 'no_customer');
  const [customer] = await ctx.db
    .select({ email: customers.email, line_user_id: customers.line_user_id })
    .from(customers)
    .where(and(eq(customers.salon_id, ctx.salonId), eq(customers.id, checkout.customer_id)));
  if (channel === 'email') {
    const address = customer?.email.trim();
    if (!address) throw conflict(REGISTER_MESSAGES.receiptNoEmail, 'no_email');
    return address;
  }
  if (!customer?.line_user_id) throw conflict(REGISTER_MESSAGES.receiptNoLine, 'not_line_linked');
  return customer.line_user_id;
}

/** Queues the receipt (the caller has checked that the staff member may read the checkout). */
export async function sendReceipt(
  ctx: AppContext,
  checkout: Checkout,
  channel: ReceiptChannel,
): Promise<{ channel: ReceiptChannel; to: string }> {
  const to = await recipientOf(ctx, checkout, channel);
  const salon = await repo.findSalon(ctx.db, ctx.salonId);
  const email: EmailPayload = {
    subject: `【${salon.name}】領収書（No. ${checkout.receipt_number}）`,
    text: receiptText(checkout, salon),
  };
  await enqueueNotification(ctx.db, {
    salonId: ctx.salonId,
    channel,
    kind: 'receipt',
    recipient: to,
    payload: channel === 'email' ? email : { messages: [{ type: 'text', text: email.text }], email },
  });
  ctx.notifications.worker.wake();
  // A LINE user id means nothing to the staff: the answer names the customer instead.
  return { channel, to: channel === 'email' ? to : (checkout.customer_name ?? '') };
}
