import type { PublicConfig } from '../shared/schemas/config';

/**
 * The start of the customer LINE Login (docs/screens.md#customer-session): the authorize URL with
 * response type code, scope 'openid profile email', bot_prompt aggressive, a state that is checked on return,
 * a PKCE challenge (S256) and a nonce. What the return needs is kept in the browser:
 *   - localStorage `line_login_state` (docs/screens.md#customer-session), compared with the state LINE sends back;
 *   - sessionStorage: the PKCE verifier, the nonce, and where to go afterwards.
 */
export const LINE_LOGIN_STATE_KEY = 'line_login_state';
const VERIFIER_KEY = 'line_login_code_verifier';
const NONCE_KEY = 'line_login_nonce';
const RETURN_TO_KEY = 'line_login_return_to';
const LINK_TOKEN_KEY = 'line_link_customer_token';

/** Where the customer login comes back to (docs/screens.md#customer-session). */
const CUSTOMER_CALLBACK_PATH = '/callback';

/** A state for linking a staff-created customer record (/link-customer/{token}); not one of the specification's. */
export const LINK_CUSTOMER_STATE = 'link_customer';

/** A random base-36 string (docs/screens.md#customer-session). */
export function randomBase36(length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 7636: 43 characters of the unreserved set. */
export function createCodeVerifier(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** S256 challenge, or null where WebCrypto's digest is missing (plain http on a LAN address): no PKCE then. */
export async function codeChallengeFor(verifier: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

interface AuthorizeRequest {
  redirectUri: string;
  state: string;
  scope: string;
  nonce: string;
  /** From codeChallengeFor; null sends no PKCE parameters. */
  challenge: string | null;
  /** Further parameters after the scope (the customer login's bot_prompt). */
  extra?: Record<string, string>;
}

/** LINE's authorization URL (response type code) for the customer and the staff login alike. */
export function lineAuthorizeUrl(config: PublicConfig, request: AuthorizeRequest): string {
  const url = new URL(config.line.authorize_url, window.location.origin);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.line.login_channel_id);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  url.searchParams.set('scope', request.scope);
  for (const [name, value] of Object.entries(request.extra ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('nonce', request.nonce);
  if (request.challenge) {
    url.searchParams.set('code_challenge', request.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function customerRedirectUri(): string {
  return new URL(CUSTOMER_CALLBACK_PATH, window.location.origin).toString();
}

/** Only paths of this site: never an absolute or protocol-relative URL from storage. */
function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

export interface LineLoginOptions {
  /** docs/screens.md#customer-session states (check_reservation, confirm_reservation) route the return; otherwise a random one. */
  state?: string;
  /** Where a plain login goes afterwards (default /reserve). */
  returnTo?: string;
  /** The one-time token of /link-customer/{token}. */
  linkToken?: string;
}

/** Builds the authorize URL and stores what the return needs. */
async function prepareLineLogin(config: PublicConfig, options: LineLoginOptions = {}): Promise<string> {
  const state = options.state ?? randomBase36();
  const verifier = createCodeVerifier();
  const nonce = randomBase36(32);
  const challenge = await codeChallengeFor(verifier);

  storage('local')?.setItem(LINE_LOGIN_STATE_KEY, state);
  const session = storage('session');
  session?.setItem(NONCE_KEY, nonce);
  if (challenge) session?.setItem(VERIFIER_KEY, verifier);
  else session?.removeItem(VERIFIER_KEY);
  const returnTo = safeReturnPath(options.returnTo);
  if (returnTo) session?.setItem(RETURN_TO_KEY, returnTo);
  else session?.removeItem(RETURN_TO_KEY);
  if (options.linkToken) session?.setItem(LINK_TOKEN_KEY, options.linkToken);
  else session?.removeItem(LINK_TOKEN_KEY);

  return lineAuthorizeUrl(config, {
    redirectUri: customerRedirectUri(),
    state,
    scope: 'openid profile email',
    extra: { bot_prompt: 'aggressive' },
    nonce,
    challenge,
  });
}

/** Leaves the app for LINE's authorization page. Tests replace `navigateTo`. */
export const lineLoginNavigation = {
  navigateTo(url: string) {
    window.location.assign(url);
  },
};

export async function startLineLogin(config: PublicConfig, options: LineLoginOptions = {}): Promise<void> {
  lineLoginNavigation.navigateTo(await prepareLineLogin(config, options));
}

interface PendingLineLogin {
  /** The state stored before leaving, or null when this browser started no login. */
  expectedState: string | null;
  codeVerifier: string | undefined;
  nonce: string | undefined;
  returnTo: string | null;
  linkToken: string | null;
}

/** Reads and forgets what `prepareLineLogin` stored: a code can be used once, and so can these. */
export function takePendingLineLogin(): PendingLineLogin {
  const local = storage('local');
  const session = storage('session');
  const pending: PendingLineLogin = {
    expectedState: local?.getItem(LINE_LOGIN_STATE_KEY) ?? null,
    codeVerifier: session?.getItem(VERIFIER_KEY) ?? undefined,
    nonce: session?.getItem(NONCE_KEY) ?? undefined,
    returnTo: safeReturnPath(session?.getItem(RETURN_TO_KEY)),
    linkToken: session?.getItem(LINK_TOKEN_KEY) ?? null,
  };
  local?.removeItem(LINE_LOGIN_STATE_KEY);
  for (const key of [VERIFIER_KEY, NONCE_KEY, RETURN_TO_KEY, LINK_TOKEN_KEY]) session?.removeItem(key);
  return pending;
}
