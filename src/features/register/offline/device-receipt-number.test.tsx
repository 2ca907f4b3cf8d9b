import { describe, expect, it } from 'vitest';
import { nextDeviceReceiptNumber } from './device-receipt-number';

/** The server's accepted format (server/features/register/receipt-number.ts). */
const SERVER_FORMAT = /^[A-Z][A-Z0-9]{0,7}-\d{8}-\d{1,8}$/;

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => values.delete(key),
    setItem: (key, value) => values.set(key, value),
  };
}

describe('receipt numbers drawn on the device', () => {
  it('counts up within a day under one device id, in the format the server keeps', () => {
    const storage = memoryStorage();
    const numbers = [1, 2, 3].map(() => nextDeviceReceiptNumber('2030-01-10', storage));
    const device = numbers[0]!.split('-')[0];
    expect(numbers).toEqual([`${device}-20300110-1`, `${device}-20300110-2`, `${device}-20300110-3`]);
    for (const number of numbers) expect(number).toMatch(SERVER_FORMAT);
  });

  it('starts the counter again on a new day, keeping the device id', () => {
    const storage = memoryStorage();
    const first = nextDeviceReceiptNumber('2030-01-10', storage);
    nextDeviceReceiptNumber('2030-01-10', storage);
    const nextDay = nextDeviceReceiptNumber('2030-01-11', storage);
    expect(nextDay).toBe(`${first.split('-')[0]}-20300111-1`);
  });

  it('draws a new device id when the storage was cleared, so no number repeats', () => {
    const storage = memoryStorage();
    const before = nextDeviceReceiptNumber('2030-01-10', storage);
    storage.clear();
    const after = nextDeviceReceiptNumber('2030-01-10', storage);
    expect(after.endsWith('-20300110-1')).toBe(true);
    expect(after).not.toBe(before);
  });
});
