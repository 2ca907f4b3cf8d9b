/**
 * Sends one Web Push message (RFC 8030) encrypted for the browser (RFC 8291, aes128gcm) and signed with the
 * server's VAPID key (RFC 8292). The web-push package builds the request; it is sent with fetch rather than the
 * package's own sendNotification, which speaks only https: so a loopback http endpoint stands in for the browser
 * vendor's push service in tests and development (endpoint.ts decides which endpoints are allowed).
 */
import webpush from 'web-push';
import { pushEndpointProblem, type PushEndpointPolicy } from './endpoint';
import type { VapidKeys } from './vapid-keys';

interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

interface PushSendOptions {
  /** Seconds the push service keeps an undelivered message (an offline phone). */
  ttlSeconds?: number;
  /** Same-topic messages still waiting replace each other at the push service (base64url, at most 32). */
  topic?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

/** The endpoint is not one the server sends to (endpoint.ts): sending again would not change that. */
export class PushEndpointRefusedError extends Error {
  readonly permanent = true;
  constructor(readonly problem: string) {
    super(`push endpoint refused: ${problem}`);
    this.name = 'PushEndpointRefusedError';
  }
}

export interface WebPushSender {
  readonly publicKey: string;
  /** The push service's HTTP status; throws on a network error or timeout. */
  send(target: PushTarget, payload: string, options?: PushSendOptions): Promise<{ status: number }>;
}

export function createWebPushSender(input: {
  keys: VapidKeys;
  policy: PushEndpointPolicy;
  timeoutMs: number;
  fetch?: typeof fetch;
}): WebPushSender {
  const doFetch = input.fetch ?? fetch;
  return {
    publicKey: input.keys.publicKey,
    async send(target, payload, options = {}) {
      const problem = pushEndpointProblem(target.endpoint, input.policy);
      if (problem) throw new PushEndpointRefusedError(problem);
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: input.keys,
          contentEncoding: 'aes128gcm',
          TTL: options.ttlSeconds ?? 24 * 60 * 60,
          ...(options.topic ? { topic: options.topic } : {}),
          ...(options.urgency ? { urgency: options.urgency } : {}),
        },
      );
      const response = await doFetch(details.endpoint, {
        method: details.method,
        headers: fetchHeaders(details.headers),
        body: details.body ? new Uint8Array(details.body) : null,
        // A push service never redirects; following one would reach a host that endpoint.ts never checked.
        redirect: 'manual',
        signal: AbortSignal.timeout(input.timeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status };
    },
  };
}

/** web-push's headers as fetch takes them: strings, and no Content-Length (fetch sets it from the body). */
function fetchHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
}
