import { api } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { MESSAGES } from '#src/shared/messages';
import type { LineCallbackRequest, TokenPair } from '#src/shared/schemas/auth';

/** docs/screens.md#customer-session: at most 3 attempts; after attempt n the wait is 2^n seconds (2 s, then 4 s). */
const MAX_LOGIN_ATTEMPTS = 3;

interface LoginRetryPolicy {
  wait(ms: number): Promise<void>;
}

/** Component tests replace `wait` so that they do not sleep. */
export const loginRetryPolicy: LoginRetryPolicy = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A 200 without both tokens (docs/screens.md#customer-session): the attempt counts as failed. */
class MissingTokensError extends Error {
  constructor() {
    super(MESSAGES.tokensMissing);
    this.name = 'MissingTokensError';
  }
}

/** Network errors and 5xx may pass; any other answer will not change by asking again. */
function isRetryableLoginError(error: unknown): boolean {
  if (error instanceof MissingTokensError) return true;
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

export async function withLoginRetries<T>(
  attempt: () => Promise<T>,
  policy: LoginRetryPolicy = loginRetryPolicy,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (attemptNumber >= MAX_LOGIN_ATTEMPTS || !isRetryableLoginError(error)) throw error;
      const waitMs = 2 ** attemptNumber * 1000;
      console.warn(`ログイン処理に失敗しました（${attemptNumber}回目）。${waitMs / 1000}秒後に再試行します。`, error);
      await policy.wait(waitMs);
    }
  }
}

function tokenPairOf(answer: unknown): TokenPair {
  const pair = answer as Partial<TokenPair> | undefined;
  if (typeof pair?.access !== 'string' || !pair.access || typeof pair.refresh !== 'string' || !pair.refresh) {
    throw new MissingTokensError();
  }
  return { access: pair.access, refresh: pair.refresh };
}

/** POST /api/line/callback/ (docs/screens.md#customer-session), one attempt. */
export async function exchangeLineCode(body: LineCallbackRequest): Promise<TokenPair> {
  return tokenPairOf(await api.post('/api/line/callback/', body));
}

interface LinkCustomerRequest extends LineCallbackRequest {
  token: string;
}

/** POST /api/link-customer/: links the LINE account behind `code` to a staff-created customer; one attempt. */
export async function linkCustomerAccount(body: LinkCustomerRequest): Promise<TokenPair> {
  return tokenPairOf(await api.post('/api/link-customer/', body));
}
