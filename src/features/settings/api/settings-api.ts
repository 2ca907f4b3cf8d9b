import { api } from '#src/lib/api-client';
import type { LineUsage, SalonSettings, UpdateSalonSettingsRequest } from '#src/shared/schemas/settings';

/** GET/PATCH /api/admin/settings/ (docs/architecture.md salon settings; PATCH is superuser only). No React here. */

export function fetchSettings(signal?: AbortSignal) {
  return api.get<SalonSettings>('/api/admin/settings/', { signal });
}

/** GET /api/admin/line-usage/: this month's LINE pushes and the plan's limit. */
export function fetchLineUsage(signal?: AbortSignal) {
  return api.get<LineUsage>('/api/admin/line-usage/', { signal });
}

export function updateSettings(patch: UpdateSalonSettingsRequest) {
  return api.patch<SalonSettings>('/api/admin/settings/', patch);
}
