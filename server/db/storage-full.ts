/**
 * A write refused for want of space: the disk (or the quota) of this instance's files is full (ENOSPC, EDQUOT), or
 * the database server's is (SQLSTATE 53100 disk_full; the embedded engine reports its own full disk the same way,
 * as PostgreSQL maps ENOSPC to 53100). Looked for along the `cause` chain, as drivers and Drizzle wrap errors.
 */
export function isStorageFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
