import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lineMessageProblem } from '#server/integrations/line/flex';
import type { LineMessage } from '#server/integrations/line/messaging';

const isLoopbackHttp = (url: URL) =>
  url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');

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
  messages: Array<{ type: string; text?: string; originalContentUrl?: string; previewImageUrl?: string }>;
  /** The status answered, or null for a request left hanging. */
  status: number | null;
}

export interface AcceptedPush {
  to: string;
  messages: Array<{ type: string; text?: string; originalContentUrl?: string; previewImageUrl?: string }>;
  retryKey: string;
}

/** One POST /v2/bot/message/multicast request (bulk sends). */
export interface RecordedMulticast {
  path: string;
  authorization: string;
  retryKey: string;
  to: string[];
  messages: Array<{ type: string; text?: string; originalContentUrl?: string; previewImageUrl?: string }>;
  /** The status answered, or null for a request left hanging. */
  status: number | null;
}

/** One POST /v2/bot/message/reply request (an answer to a webhook event, by its reply token). */
export interface RecordedReply {
  authorization: string;
  replyToken: string;
  messages: Array<{ type: string; text?: string; altText?: string }>;
  /** 200, or 400 for a token already used (LINE takes each once). */
  status: number;
}

export interface FakeLineMessaging {
  /** Use as LINE_API_BASE. */
  url: string;
  /** Every push request, in arrival order. */
  requests: RecordedPush[];
  /** Messages LINE would deliver: one per retry key, however often it was sent. */
  accepted: AcceptedPush[];
  /** Every multicast request, in arrival order (kept apart from `requests`, which are pushes). */
  multicasts: RecordedMulticast[];
  /** Multicasts LINE would deliver: one per retry key, however often it was sent. */
  acceptedMulticasts: RecordedMulticast[];
  /** Every reply request, in arrival order (replies are free and carry no retry key). */
  replies: RecordedReply[];
  /**
   * Behaviour of the n-th attempt (0-based) of each retry key: attempt n of every message gets plan[n],
   * then 'ok'. Keyed by retry key, so messages pushed side by side each go through the same sequence.
   */
  planPerMessage(plan: LineBehaviour[]): void;
  /** Answer every request like this (overrides the plan) until reset with null. */
  always(behaviour: LineBehaviour | null): void;
  /** A push waits this long before its answer. */
  delayMs: number;
  /** GET /v2/bot/message/{id}/content (the webhook fetching an image): what each message id serves; others 404. */
  contents: Map<string, { status: number; contentType: string; body: Buffer }>;
  /** GET /v2/bot/profile/{userId}: the profile of each user; others 404. */
  profiles: Map<string, { displayName: string; pictureUrl?: string }>;
  /** Every GET (content and profile), in arrival order. */
  gets: Array<{ path: string; authorization: string }>;
  close(): Promise<void>;
}

/**
 * A local stand-in for the Messaging API's POST /v2/bot/message/push and /multicast, with LINE's retry-key
 * semantics. `port`: listen on that port (see startFakeSmtp); default any.
 */
export async function startFakeLineMessaging(options: {
  accessToken: string;
  port?: number;
}): Promise<FakeLineMessaging> {
  const requests: RecordedPush[] = [];
  const accepted: AcceptedPush[] = [];
  const multicasts: RecordedMulticast[] = [];
  const acceptedMulticasts: RecordedMulticast[] = [];
  const attemptsByKey = new Map<string, number>();
  let plan: LineBehaviour[] = [];
  let forced: LineBehaviour | null = null;

  const fake: FakeLineMessaging = {
    url: '',
    requests,
    accepted,
    multicasts,
    acceptedMulticasts,
    replies: [],
    planPerMessage: (next) => {
      plan = [...next];
    },
    always: (behaviour) => {
      forced = behaviour;
    },
    delayMs: 0,
    contents: new Map(),
    profiles: new Map(),
    gets: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET') return serveGet(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v2/bot/message/reply') return serveReply(req, res, Buffer.concat(chunks));
      const retryKey = String(req.headers['x-line-retry-key'] ?? '');
      let body: { to?: string | string[]; messages?: RecordedPush['messages'] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // recorded as is: the assertions catch it
      }
      const isMulticast = req.url === '/v2/bot/message/multicast';
      const recorded: RecordedPush = {
        path: req.url ?? '',
        authorization: String(req.headers.authorization ?? ''),
        retryKey,
        to: typeof body.to === 'string' ? body.to : '',
        messages: body.messages ?? [],
        status: null,
      };
      const multicast: RecordedMulticast = { ...recorded, to: Array.isArray(body.to) ? body.to : [] };
      if (isMulticast) multicasts.push(multicast);
      else requests.push(recorded);
      const attempt = attemptsByKey.get(retryKey) ?? 0;
      attemptsByKey.set(retryKey, attempt + 1);
      const behaviour = forced ?? plan[attempt] ?? 'ok';

      const accept = () => {
        if (isMulticast) {
          if (acceptedMulticasts.some((request) => request.retryKey === retryKey)) return false;
          acceptedMulticasts.push(multicast);
          return true;
        }
        if (!accepted.some((push) => push.retryKey === retryKey)) {
          accepted.push({ to: recorded.to, messages: recorded.messages, retryKey });
          return true;
        }
        return false;
      };
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        recorded.status = status;
        multicast.status = status;
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(payload));
        }, fake.delayMs);
      };

      if (req.method !== 'POST' || (req.url !== '/v2/bot/message/push' && !isMulticast)) {
        return answer(404, { message: 'Not found' });
      }
      if (isMulticast && (multicast.to.length === 0 || multicast.to.length > 500)) {
        return answer(400, { message: 'The property, to, must be an array of 1 to 500 user ids' });
      }
      if (recorded.authorization !== `Bearer ${options.accessToken}`) {
        return answer(401, { message: 'Authentication failed' });
      }
      // LINE checks the messages (a Flex card's altText and links) before anything else. The apps under test run on
      // loopback over http (their PUBLIC_URL): links there are the app's own, which the emulator accepts too.
      const invalid = recorded.messages
        .map((message) => lineMessageProblem(message as LineMessage, isLoopbackHttp))
        .find(Boolean);
      if (invalid) return answer(400, { message: 'A message (messages[0]) is invalid', details: [invalid] });
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
  function serveReply(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) {
    let body: { replyToken?: string; messages?: RecordedReply['messages'] } = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as typeof body;
    } catch {
      // recorded as is: the assertions catch it
    }
    const authorization = String(req.headers.authorization ?? '');
    const replyToken = body.replyToken ?? '';
    const used = fake.replies.some((reply) => reply.replyToken === replyToken && reply.status === 200);
    const status = authorization !== `Bearer ${options.accessToken}` ? 401 : !replyToken || used ? 400 : 200;
    fake.replies.push({ authorization, replyToken, messages: body.messages ?? [], status });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { sentMessages: [] } : { message: 'Invalid reply token' }));
  }

  function serveGet(req: http.IncomingMessage, res: http.ServerResponse) {
    const authorization = String(req.headers.authorization ?? '');
    fake.gets.push({ path: req.url ?? '', authorization });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (authorization !== `Bearer ${options.accessToken}`) return json(401, { message: 'Authentication failed' });
    const content = /^\/v2\/bot\/message\/([^/]+)\/content$/.exec(req.url ?? '');
    const profile = /^\/v2\/bot\/profile\/([^/]+)$/.exec(req.url ?? '');
    const served = content ? fake.contents.get(decodeURIComponent(content[1]!)) : undefined;
    if (served) {
      res.writeHead(served.status, { 'content-type': served.contentType, 'content-length': served.body.length });
      return res.end(served.body);
    }
    const user = profile ? fake.profiles.get(decodeURIComponent(profile[1]!)) : undefined;
    if (user) return json(200, { userId: decodeURIComponent(profile![1]!), language: 'ja', ...user });
    return json(404, { message: 'Not found' });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}
