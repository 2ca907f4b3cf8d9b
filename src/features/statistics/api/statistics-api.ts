import { api } from '#src/lib/api-client';
import type { Statistics } from '#src/shared/schemas/statistics';

/** GET /api/statistics/ (superuser). Outside /api/admin/, so the admin token is asked for explicitly. */
export function fetchStatistics(signal?: AbortSignal) {
  return api.get<Statistics>('/api/statistics/', { signal, auth: 'admin' });
}
