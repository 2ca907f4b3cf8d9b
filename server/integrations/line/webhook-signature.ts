/**
 * LINE webhook signatures (docs/architecture.md): `x-line-signature` is the base64 HMAC-SHA256 of the request's raw
 * bytes with the Messaging API channel secret. Checked on the bytes as received, never on a re-serialised
 * body: JSON.stringify(JSON.parse(raw)) changes escapes and spacing, and so the signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Env } from '../../env';

// A SHA-256 digest in base64 is always 44 characters ending in one '='. Buffer.from(…, 'base64') skips
// characters it does not know, so without this check a valid signature with junk around it would pass.
const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The secret the webhook checks with: LINE_MESSAGING_CHANNEL_SECRET; in LINE dev mode without one, a secret
 * derived from the server's own secret (stable across restarts, never committed) so that the emulator's
 * "send as customer" form can sign; live mode without one: null, and every webhook call is refused.
 */
export function lineWebhookSecret(
  env: Pick<Env, 'LINE_MESSAGING_CHANNEL_SECRET' | 'lineDevMode'>,
  secretSeed: string,
): string | null {
  if (env.LINE_MESSAGING_CHANNEL_SECRET) return env.LINE_MESSAGING_CHANNEL_SECRET;
  if (!env.lineDevMode) return null;
  return createHmac('sha256', secretSeed).update('line-emulator-messaging-channel').digest('hex');
}

export function signLineWebhookBody(raw: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(raw).digest('base64');
}

/**
 * Constant-time, on the raw bytes: what @line/bot-sdk's validateSignature does, written here because importing the
 * SDK's index for it cost ~0.3 s of CPU at every server start (docs/decisions/0020-test-and-start-dependencies.md).
 */
export function isValidLineSignature(raw: Buffer, secret: string | null, signature: unknown): boolean {
  if (!secret || typeof signature !== 'string' || !SIGNATURE_PATTERN.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
