import type { Executor } from '../../db/client';
import * as repo from './checkouts.repository';

/**
 * A receipt number a device drew offline: its own prefix (a letter, then up to 7 letters or digits), the
 * salon-local date and its own counter, e.g. `IPAD1-20300110-12`. The server's own numbers have no prefix
 * (`20300110-000123`), so the two kinds can never collide (docs/decisions/0021-register.md).
 */
const CLIENT_RECEIPT_NUMBER = /^[A-Z][A-Z0-9]{0,7}-\d{8}-\d{1,8}$/;

/** The server's next receipt number for a day: the date and a salon-wide sequence. */
async function serverReceiptNumber(tx: Executor, businessDate: string): Promise<string> {
  const sequence = await repo.nextReceiptSequence(tx);
  return `${businessDate.replaceAll('-', '')}-${String(sequence).padStart(6, '0')}`;
}

/**
 * The number the checkout keeps: the device's when it is well-formed and not yet used, else the server's. A device
 * number taken between this check and the insert makes the insert fail on the unique index; the checkout is then
 * retried with `preferServer` (create-checkout.ts).
 */
export async function chooseReceiptNumber(
  tx: Executor,
  input: { salonId: number; businessDate: string; requested: string | undefined; preferServer: boolean },
): Promise<string> {
  const requested = input.requested?.trim().toUpperCase();
  if (
    !input.preferServer &&
    requested &&
    CLIENT_RECEIPT_NUMBER.test(requested) &&
    !(await repo.receiptNumberTaken(tx, input.salonId, requested))
  ) {
    return requested;
  }
  return serverReceiptNumber(tx, input.businessDate);
}
