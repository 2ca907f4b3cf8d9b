import {
  codeChallengeFor,
  createCodeVerifier,
  lineAuthorizeUrl,
  lineLoginNavigation,
  randomBase36,
} from '../../lib/line-login';
import { LINE_LOGIN_STATES } from '../../shared/constants';
import type { PublicConfig } from '../../shared/schemas/config';
import { paths } from '../../lib/paths';

/**
 * The staff side of LINE Login (docs/screens.md#register-line and docs/screens.md#admin-callback): the fixed
 * states admin_login and admin_link, the return address /admin/callback, and the public-client scope
 * "profile openid". A PKCE verifier and a nonce stay in sessionStorage for the exchange.
 */
const ADMIN_CALLBACK_PATH = paths.adminCallback;
/** docs/screens.md#register-line: "the registration token for account linking is held in the browser session". */
export const REGISTRATION_TOKEN_KEY = 'lineRegistrationToken';
const VERIFIER_KEY = 'admin_line_code_verifier';
const NONCE_KEY = 'admin_line_nonce';

type AdminLineState = typeof LINE_LOGIN_STATES.adminLogin | typeof LINE_LOGIN_STATES.adminLink;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function adminRedirectUri(): string {
  return new URL(ADMIN_CALLBACK_PATH, window.location.origin).toString();
}

export function storeRegistrationToken(token: string): void {
  session()?.setItem(REGISTRATION_TOKEN_KEY, token);
}

export function readRegistrationToken(): string | null {
  return session()?.getItem(REGISTRATION_TOKEN_KEY) ?? null;
}

export function forgetRegistrationToken(): void {
  session()?.removeItem(REGISTRATION_TOKEN_KEY);
}

async function prepareAdminLineLogin(config: PublicConfig, state: AdminLineState): Promise<string> {
  const verifier = createCodeVerifier();
  const nonce = randomBase36(32);
  const challenge = await codeChallengeFor(verifier);
  const storage = session();
  storage?.setItem(NONCE_KEY, nonce);
  if (challenge) storage?.setItem(VERIFIER_KEY, verifier);
  else storage?.removeItem(VERIFIER_KEY);

  return lineAuthorizeUrl(config, {
    redirectUri: adminRedirectUri(),
    state,
    scope: 'profile openid',
    nonce,
    challenge,
  });
}

/** Leaves the app for LINE's authorization page (tests replace lineLoginNavigation.navigateTo). */
export async function startAdminLineLogin(config: PublicConfig, state: AdminLineState): Promise<void> {
  lineLoginNavigation.navigateTo(await prepareAdminLineLogin(config, state));
}

/** Reads and forgets the verifier and nonce: a code is good once, and so are they. */
export function takeAdminLineSecrets(): { code_verifier?: string; nonce?: string } {
  const storage = session();
  const secrets = {
    code_verifier: storage?.getItem(VERIFIER_KEY) ?? undefined,
    nonce: storage?.getItem(NONCE_KEY) ?? undefined,
  };
  storage?.removeItem(VERIFIER_KEY);
  storage?.removeItem(NONCE_KEY);
  return secrets;
}
