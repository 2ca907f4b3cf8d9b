import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake does with one push request:
 * - a number: answers that status (500: LINE is having a bad day) without accepting the message;
 * - 'hang': never answers;
 * - 'accept-and-hang': accepts the message (as LINE would) but never answers (a response lost on the way);
 * - 'ok': LINE's normal behaviour: 200 for a new retry key, 409 for one already accepted.
 */
export type LineBehaviour = number | 'hang' | 'accept-and-hang' | 'ok';

export interface RecordedPush {
  path: string;
  authorization: string;
  retryKey: string;
  to: string;
  messages: Array<{ type: string; text?: string }>;
  /** The status answered, or null for a request left hanging. */
  status: number | null;
}

export interface AcceptedPush {
  to: string;
  messages: Array<{ type: string; text?: string }>;
  retryKey: string;
}

export interface FakeLineMessaging {
  /** Use as LINE_API_BASE. */
  url: string;
  /** Every push request, in arrival order. */
  requests: RecordedPush[];
  /** Messages LINE would deliver: one per retry key, however often it was sent. */
  accepted: AcceptedPush[];
  /**
   * Behaviour of the n-th attempt (0-based) of each retry key: attempt n of every message gets plan[n],
   * then 'ok'. Keyed by retry key, so messages pushed side by side each go through the same sequence.
   */
  planPerMessage(plan: LineBehaviour[]): void;
  /** Answer every request like this (overrides the plan) until reset with null. */
  always(behaviour: LineBehaviour | null): void;
  /** A push waits this long before its answer. */
  delayMs: number;
  close(): Promise<void>;
}

/** A local stand-in for the Messaging API's POST /v2/bot/message/push, with LINE's retry-key semantics. */
export async function startFakeLineMessaging(options: { accessToken: string }): Promise<FakeLineMessaging> {
  const requests: RecordedPush[] = [];
  const accepted: AcceptedPush[] = [];
  const attemptsByKey = new Map<string, number>();
  let plan: LineBehaviour[] = [];
  let forced: LineBehaviour | null = null;

  const fake: FakeLineMessaging = {
    url: '',
    requests,
    accepted,
    planPerMessage: (next) => {
      plan = [...next];
    },
    always: (behaviour) => {
      forced = behaviour;
    },
    delayMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const retryKey = String(req.headers['x-line-retry-key'] ?? '');
      let body: { to?: string; messages?: RecordedPush['messages'] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // recorded as is: the assertions catch it
      }
      const recorded: RecordedPush = {
        path: req.url ?? '',
        authorization: String(req.headers.authorization ?? ''),
        retryKey,
        to: body.to ?? '',
        messages: body.messages ?? [],
        status: null,
      };
      requests.push(recorded);
      const attempt = attemptsByKey.get(retryKey) ?? 0;
      attemptsByKey.set(retryKey, attempt + 1);
      const behaviour = forced ?? plan[attempt] ?? 'ok';

      const accept = () => {
        if (!accepted.some((push) => push.retryKey === retryKey)) {
          accepted.push({ to: recorded.to, messages: recorded.messages, retryKey });
          return true;
        }
        return false;
      };
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        recorded.status = status;
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(payload));
        }, fake.delayMs);
      };

      if (req.method !== 'POST' || req.url !== '/v2/bot/message/push') return answer(404, { message: 'Not found' });
      if (recorded.authorization !== `Bearer ${options.accessToken}`) {
        return answer(401, { message: 'Authentication failed' });
      }
      if (behaviour === 'hang') return;
      if (behaviour === 'accept-and-hang') {
        accept();
        return;
      }
      if (typeof behaviour === 'number') return answer(behaviour, { message: 'An error occurred in the server' });
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(retryKey)) {
        return answer(400, { message: 'The retry key is invalid' });
      }
      if (accept())
        return answer(200, { sentMessages: recorded.messages.map((_, i) => ({ id: `${Date.now()}${i}` })) });
      return answer(
        409,
        { message: 'The retry key is already accepted' },
        { 'x-line-accepted-request-id': 'accepted-request' },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}
