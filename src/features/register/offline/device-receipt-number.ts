/**
 * Receipt numbers drawn on this device (docs/decisions/0021-register.md): `<device id>-yyyyMMdd-n`, the format the
 * server accepts and keeps (server/features/register/receipt-number.ts). The device id is random and kept with the
 * day's counter in one localStorage entry: a browser whose storage was cleared draws a new id, so a counter that
 * starts again can never repeat a number already printed.
 */

const STORAGE_KEY = 'salon.register.receipt-numbers';
const DEVICE_ID = /^[A-Z][A-Z0-9]{0,7}$/;
const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

interface Counter {
  device: string;
  /** yyyyMMdd of the last number drawn. */
  day: string;
  last: number;
}

function newDeviceId(): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  return `D${Array.from(random, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('')}`;
}

function readCounter(storage: Storage): Counter | null {
  try {
    const value = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as Partial<Counter> | null;
    if (!value || typeof value.device !== 'string' || !DEVICE_ID.test(value.device)) return null;
    return { device: value.device, day: String(value.day ?? ''), last: Number(value.last) || 0 };
  } catch {
    return null;
  }
}

/** The next number for `date` (salon-local `yyyy-MM-dd`): the counter starts at 1 each day. */
export function nextDeviceReceiptNumber(date: string, storage: Storage = localStorage): string {
  const day = date.replaceAll('-', '');
  const counter = readCounter(storage) ?? { device: newDeviceId(), day, last: 0 };
  const next: Counter = { device: counter.device, day, last: counter.day === day ? counter.last + 1 : 1 };
  storage.setItem(STORAGE_KEY, JSON.stringify(next));
  return `${next.device}-${day}-${next.last}`;
}
