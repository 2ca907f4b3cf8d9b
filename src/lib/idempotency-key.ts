/**
 * A fresh Idempotency-Key: a booking's, or an outbox entry's. The server runs a request once per key and answers a
 * repeat from its record, so a retry after a lost answer can never book or change twice.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Older browsers on plain http have no randomUUID; 128 random bits serve the same purpose.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
