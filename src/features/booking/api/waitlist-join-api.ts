import { api } from '#src/lib/api-client';
import type { JoinWaitlistRequest, WaitlistEntry } from '#src/shared/schemas/waitlist';

/**
 * POST /api/waitlist/: キャンセル待ちに登録 for a day and a menu choice. Apart from waitlist-api.ts so that it travels
 * in the form's chunk, not in /reserve's (tests/e2e/customer-bundle-budget.test.ts).
 */
export function joinWaitlist(body: JoinWaitlistRequest): Promise<WaitlistEntry> {
  return api.post<WaitlistEntry>('/api/waitlist/', body, { auth: 'customer' });
}
