import { api } from '#src/lib/api-client';
import { MESSAGES } from '#src/shared/messages';
import type { AdminProfile, TokenPair } from '#src/shared/schemas/auth';

/** Fetchers of the staff session (docs/screens.md#admin-session). No React here. */

export function fetchAdminProfile(signal?: AbortSignal) {
  return api.get<AdminProfile>('/api/admin/me/', { signal });
}

/** docs/screens.md#admin-session: an answer without both tokens counts as a failed login. */
export class MissingTokensError extends Error {
  constructor() {
    super(MESSAGES.tokensMissing);
    this.name = 'MissingTokensError';
  }
}

function requirePair(answer: Partial<TokenPair> | undefined): TokenPair {
  if (!answer?.access || !answer.refresh) throw new MissingTokensError();
  return { access: answer.access, refresh: answer.refresh };
}

export async function loginWithPassword(input: { username: string; password: string }): Promise<TokenPair> {
  // No stored token may ride along: a stale customer token must not turn a login into a refresh attempt.
  return requirePair(await api.post<Partial<TokenPair>>('/api/token/', input, { auth: 'none' }));
}

interface LineCodeExchange {
  code: string;
  code_verifier?: string;
  nonce?: string;
  redirect_uri: string;
}

export async function loginWithLine(input: LineCodeExchange): Promise<TokenPair> {
  return requirePair(await api.post<Partial<TokenPair>>('/api/admin/login-line/', input, { auth: 'none' }));
}

export async function linkLineAccount(input: LineCodeExchange & { token: string }): Promise<TokenPair> {
  return requirePair(await api.post<Partial<TokenPair>>('/api/admin/link-line/', input, { auth: 'none' }));
}

/**
 * POST /api/admin/logout/: the server revokes this login's refresh tokens. The refresh token is the credential, so
 * no access token is sent (it may have expired) and no refresh is tried; the offline layer is bypassed.
 */
export async function revokeAdminSession(refresh: string): Promise<void> {
  await api.post('/api/admin/logout/', { refresh }, { auth: 'none', offline: false });
}
