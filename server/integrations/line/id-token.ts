import { errors as joseErrors, jwtVerify } from 'jose';

/** LINE Login's issuer, in live mode and in the emulator alike. */
export const LINE_ISSUER = 'https://access.line.me';

export interface LineIdentity {
  lineUserId: string;
  displayName: string;
  pictureUrl: string;
  email: string;
}

export class LineIdTokenError extends Error {
  override name = 'LineIdTokenError';
}

/**
 * Verifies a LINE Login ID token: HS256 signed with the channel secret, issued by LINE for this channel
 * (`aud`), not expired, and carrying the nonce this browser sent, when it sent one.
 */
export async function verifyLineIdToken(
  idToken: string,
  options: { channelId: string; channelSecret: string; nonce?: string; now?: Date },
): Promise<LineIdentity> {
  try {
    const { payload } = await jwtVerify(idToken, new TextEncoder().encode(options.channelSecret), {
      algorithms: ['HS256'],
      issuer: LINE_ISSUER,
      audience: options.channelId,
      currentDate: options.now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const tokenNonce = typeof payload.nonce === 'string' ? payload.nonce : undefined;
    if ((options.nonce || tokenNonce) && tokenNonce !== options.nonce) throw new LineIdTokenError('nonce mismatch');
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      lineUserId: payload.sub!,
      displayName: text(payload.name),
      pictureUrl: text(payload.picture),
      email: text(payload.email),
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw new LineIdTokenError(error.code);
    throw error;
  }
}
