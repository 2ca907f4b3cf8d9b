/**
 * A typed or read-out 予約コード as stored: capitals, without spaces or hyphens; undefined when it cannot be one.
 * Staff search with it (GET /api/admin/reservations/?code=). Without zod: the staff list's search box loads it with
 * the admin area's first screen.
 */
export function normalizeReservationCode(value: string): string | undefined {
  const code = value.replace(/[\s-]/g, '').toUpperCase();
  return /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/.test(code) ? code : undefined;
}
