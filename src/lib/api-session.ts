import { MESSAGES } from '../shared/messages';
import { ApiError, errorBodyFor, readBody } from './api-error';
import { fetchOnce, REFRESH_PATH, withTimeLimit } from './api-transport';
import {
  accessTokenOf,
  expireSession,
  refreshTokenOf,
  sessionOf,
  storeTokens,
  tokenClaims,
  type TokenAudience,
  type TokenSession,
} from './token-session';

/** Refreshing the access tokens of the API client (src/lib/api-client.ts, which re-exports this module). */

/**
 * Called when a call that carried `audience`'s token got a 401. Resolve true when a fresh access token is stored:
 * the call is then replayed once with it. Resolve false to let the 401 through. Throw (an ApiError with status 0)
 * when the refresh got no answer: the call then fails as a network failure and the session is kept.
 * Without an installed handler, `refreshOnUnauthorized` below is the rule.
 */
type UnauthorizedHandler = (error: ApiError) => Promise<boolean>;
const unauthorizedHandlers: Partial<Record<TokenAudience, UnauthorizedHandler>> = {};

/** Installs (or with null removes) the 401 handler of one audience; returns a function that removes it again. */
export function setUnauthorizedHandler(audience: TokenAudience, handler: UnauthorizedHandler | null): () => void {
  if (handler) unauthorizedHandlers[audience] = handler;
  else delete unauthorizedHandlers[audience];
  return () => {
    if (unauthorizedHandlers[audience] === handler) delete unauthorizedHandlers[audience];
  };
}

export function handlerOf(audience: TokenAudience): UnauthorizedHandler {
  return unauthorizedHandlers[audience] ?? ((error) => refreshOnUnauthorized(sessionOf(audience), error));
}

/**
 * Makes sure the audience's stored access token is good for at least `marginMs` more: refreshes it when it is
 * missing or about to expire. Throws the 401 when the session is over, a status-0 ApiError when the refresh got no
 * answer (the tokens may still be good once the server is reachable).
 */
export async function ensureFreshToken(audience: TokenAudience, marginMs: number): Promise<void> {
  const token = accessTokenOf(sessionOf(audience));
  const { expiresAt } = tokenClaims(token);
  if (token && (expiresAt === null || expiresAt - Date.now() > marginMs)) return;
  // Treated as the server's refusal of that token, which is what it would answer.
  const expired = new ApiError(401, { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' });
  if (!(await handlerOf(audience)(expired))) throw expired;
}

/**
 * The default 401 rule: an expired access token (`token_not_valid`) is traded for a new one; a refused refresh ends
 * the session (the tokens are cleared and the screens told). Any other 401 is left to the caller.
 */
export async function refreshOnUnauthorized(session: TokenSession, error: ApiError): Promise<boolean> {
  if (error.code !== 'token_not_valid') return false;
  if (await refreshSession(session)) return true;
  expireSession(session);
  return false;
}

// Several calls failing at once share one refresh: a rotated refresh token is only good once.
const refreshesInFlight = new Map<string, Promise<boolean>>();

/** true when a new access token was stored. No answer (or a 5xx) rethrows: the tokens may still be good. */
function refreshSession(session: TokenSession): Promise<boolean> {
  const running = refreshesInFlight.get(session.name);
  if (running) return running;
  const attempt = (async () => {
    const refresh = refreshTokenOf(session);
    if (!refresh) return false;
    let pair: { access?: unknown; refresh?: unknown } | undefined;
    try {
      const request = { method: 'POST', body: { refresh }, auth: 'none' } as const;
      const { response, data } = await withTimeLimit(request, async (signal) => {
        const response = await fetchOnce(REFRESH_PATH, { ...request, signal });
        return { response, data: await readBody(response) };
      });
      if (response.status >= 500) throw new ApiError(response.status, errorBodyFor(response.status, data));
      if (!response.ok) return false;
      pair = data as typeof pair;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      return false;
    }
    if (typeof pair?.access !== 'string' || !pair.access) return false;
    storeTokens(session, { access: pair.access, refresh: typeof pair.refresh === 'string' ? pair.refresh : null });
    return true;
  })().finally(() => refreshesInFlight.delete(session.name));
  refreshesInFlight.set(session.name, attempt);
  return attempt;
}
