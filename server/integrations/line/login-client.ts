/**
 * LINE Login: exchanging an authorization code for an ID token. The live client talks to LINE_API_BASE;
 * tests point it at a local fake. In dev mode the built-in emulator answers the same exchange in process.
 */
export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
}

export interface LineLoginClient {
  mode: 'dev' | 'live';
  channelId: string;
  channelSecret: string;
  /** Where the browser is sent to sign in (LINE's authorize page or the emulator's). */
  authorizeUrl: string;
  exchangeCode(input: CodeExchange): Promise<{ idToken: string }>;
}

/** LINE refused the code (expired, reused, wrong redirect): the user must sign in again. */
export class LineCodeRejectedError extends Error {
  override name = 'LineCodeRejectedError';
}
/** LINE could not be reached or failed on its side: worth retrying. */
export class LineUnavailableError extends Error {
  override name = 'LineUnavailableError';
}

export function createLiveLineLoginClient(options: {
  authBase: string;
  apiBase: string;
  channelId: string;
  channelSecret: string;
  timeoutMs?: number;
}): LineLoginClient {
  const trim = (base: string) => base.replace(/\/+$/, '');
  return {
    mode: 'live',
    channelId: options.channelId,
    channelSecret: options.channelSecret,
    authorizeUrl: `${trim(options.authBase)}/oauth2/v2.1/authorize`,
    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: options.channelId,
        client_secret: options.channelSecret,
      });
      if (codeVerifier) form.set('code_verifier', codeVerifier);
      let response: Response;
      try {
        response = await fetch(`${trim(options.apiBase)}/oauth2/v2.1/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new LineUnavailableError(`LINE token endpoint unreachable: ${String(error)}`);
      }
      if (response.status >= 500) throw new LineUnavailableError(`LINE token endpoint answered ${response.status}`);
      const body = (await response.json().catch(() => null)) as { id_token?: unknown } | null;
      if (!response.ok || typeof body?.id_token !== 'string') {
        throw new LineCodeRejectedError(`LINE token endpoint answered ${response.status}`);
      }
      return { idToken: body.id_token };
    },
  };
}
