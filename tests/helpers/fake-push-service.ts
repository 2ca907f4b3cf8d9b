/**
 * A local stand-in for a browser vendor's push service (as fake-line-messaging.ts is for LINE): an HTTP server on
 * 127.0.0.1 that records every push request and answers with the statuses a test plans (default 201). With
 * `fakeBrowser()` a test plays the subscribing browser: its key pair and auth secret, the subscription JSON the
 * browser would POST, and the decryption of a received message (RFC 8291, aes128gcm).
 */
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

const require = createRequire(import.meta.url);
/** web-push's own decrypting counterpart (no type declarations of its own). */
const ece = require('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

export interface RecordedPushRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface FakePushService {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedPushRequest[];
  /** The next answers, in order; afterwards 201 again. */
  plan(statuses: number[]): void;
  /** A Location header on every answer from now on (null: none), for a planned 3xx. */
  redirectTo(location: string | null): void;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const requests: RecordedPushRequest[] = [];
  let planned: number[] = [];
  let location: string | null = null;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(planned.shift() ?? 201, location ? { location } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    plan(statuses) {
      planned = [...statuses];
    },
    redirectTo(target) {
      location = target;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface FakeBrowser {
  /** What PushSubscription.toJSON() gives and the staff app POSTs. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The plaintext of an aes128gcm message sent to this browser. */
  decrypt(body: Buffer): string;
}

/** A browser subscribed at `endpoint`: a fresh P-256 key pair and 16-byte auth secret. */
export function fakeBrowser(endpoint: string): FakeBrowser {
  const ecdh = createECDH('prime256v1');
  const p256dh = ecdh.generateKeys().toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  return {
    subscription: { endpoint, keys: { p256dh, auth } },
    decrypt: (body) => ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8'),
  };
}

/**
 * Checks a push request's VAPID Authorization (`vapid t=<JWT>, k=<public key>`, RFC 8292): the key is the
 * server's, and the ES256 JWT verifies with it for `audience` (the push service's origin). Returns its claims.
 */
export async function verifyVapid(authorization: string | undefined, publicKey: string, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  if (match[2] !== publicKey) throw new Error('signed with another key');
  const point = Buffer.from(publicKey, 'base64url');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(match[1]!, key, { algorithms: ['ES256'], audience });
  return payload as JWTPayload & { sub?: string };
}
