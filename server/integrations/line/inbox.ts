/**
 * The LINE emulator's inbox (docs/architecture.md#operating-contract): while no Messaging API token is configured, every push is kept
 * here and shown at /dev/line/inbox (HTML, or JSON with ?format=json for tests and scripts).
 * Like LINE, the inbox accepts a retry key once: a repeated push is dropped. Replies (answers to a customer's
 * message with its reply token) are kept too, marked with their token; like LINE, a token is used once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { coalescedWrites } from '../../coalesced-writes';
import type { Database } from '../../db/client';
import { devLineInbox } from '../../db/schema';
import { escapeHtml } from './emulator';
import { lineMessageProblem, lineMessageReadableText } from './flex';
import {
  LinePushError,
  type LineMulticast,
  type LinePush,
  type LineMessage,
  type LinePusher,
  type LineReply,
} from './messaging';

interface InboxEntry {
  id: number;
  to: string;
  messages: LineMessage[];
  retry_key: string;
  /** Set for a reply: the reply token it answered with. */
  reply_token: string | null;
  created_at: string;
}

/**
 * The transport used while no Messaging API token is configured (pusher.ts): every message is kept in the inbox,
 * after the checks LINE would make (checkInboxMessages); links to the app itself may be http in dev (appOrigin).
 */
export function createInboxPusher(db: Database, appOrigin?: string): LinePusher {
  const checked =
    <T extends { messages: LineMessage[] }>(store: (db: Database, input: T) => Promise<void>) =>
    async (input: T) => {
      checkInboxMessages(input.messages, appOrigin);
      await store(db, input);
    };
  // The worker sends a batch side by side: the pushes stored while one insert is in flight go in the next one
  // (server/coalesced-writes.ts), not one statement each.
  const storePushes = coalescedWrites((inputs: LinePush[]) => storeInboxPushes(db, inputs));
  return {
    mode: 'dev',
    push: checked((_db, input: LinePush) => storePushes(input)),
    multicast: checked(storeInboxMulticast),
    reply: checked(storeInboxReply),
  };
}

/** Refuses, as LINE does (400, for good), a request with a message LINE would not accept. */
function checkInboxMessages(messages: readonly LineMessage[], appOrigin?: string): void {
  if (messages.length === 0 || messages.length > 5) {
    throw new LinePushError('LINE answered 400: a request carries 1-5 messages', 400, true);
  }
  for (const message of messages) {
    const problem = lineMessageProblem(message, appOrigin);
    if (problem) throw new LinePushError(`LINE answered 400: ${problem}`, 400, true);
  }
}

/** Several pushes in one statement (createInboxPusher passes those sent side by side together). */
async function storeInboxPushes(db: Database, inputs: LinePush[]): Promise<void> {
  // The pushes as one JSON parameter: one statement of the same text for any number (its plan is kept), and none
  // of the query builder's work per value (the worker stores a batch's pushes at once, docs/BENCHMARKS.md).
  const pushes = JSON.stringify(
    inputs.map((input) => ({ to: input.to, messages: input.messages, key: input.retryKey })),
  );
  await db.execute(sql`
    insert into dev_line_inbox ("to", messages, retry_key)
    select p."to", p.messages, p.key from jsonb_to_recordset(${pushes}::jsonb) as p("to" text, messages jsonb, key uuid)
    on conflict (retry_key) do nothing`);
}

/** A reply: like LINE, a token answers once (a second reply with it is refused as LINE refuses it, 400). */
async function storeInboxReply(db: Database, input: LineReply): Promise<void> {
  const [used] = await db
    .select({ id: devLineInbox.id })
    .from(devLineInbox)
    .where(eq(devLineInbox.reply_token, input.replyToken))
    .limit(1);
  if (used) throw new LinePushError('LINE reply answered 400: Invalid reply token', 400, true);
  await db
    .insert(devLineInbox)
    .values({ to: input.to, messages: input.messages, retry_key: randomUUID(), reply_token: input.replyToken });
}

/**
 * A multicast is kept as one inbox entry per recipient. Each gets its own retry key, derived from the request's
 * key and the recipient (so the column stays unique), the same on every attempt: a repeat adds nothing.
 */
async function storeInboxMulticast(db: Database, input: LineMulticast): Promise<void> {
  const recipients = [...new Set(input.to)];
  if (recipients.length === 0) return;
  await db
    .insert(devLineInbox)
    .values(
      recipients.map((to) => ({ to, messages: input.messages, retry_key: recipientRetryKey(input.retryKey, to) })),
    )
    .onConflictDoNothing({ target: devLineInbox.retry_key });
}

/** A name-based (version 5 layout, SHA-256) UUID of the request's retry key and one recipient. */
function recipientRetryKey(retryKey: string, recipient: string): string {
  const bytes = createHash('sha256').update(`${retryKey}\n${recipient}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Newest first. */
export async function listInbox(db: Database, options: { to?: string; limit?: number } = {}): Promise<InboxEntry[]> {
  const rows = await db
    .select()
    .from(devLineInbox)
    .where(options.to ? eq(devLineInbox.to, options.to) : undefined)
    .orderBy(desc(devLineInbox.id))
    .limit(options.limit ?? 200);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    messages: row.messages as LineMessage[],
    retry_key: row.retry_key,
    reply_token: row.reply_token,
    created_at: row.created_at.toISOString(),
  }));
}

const listQuery = z.object({
  format: z.enum(['html', 'json']).default('html'),
  to: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** GET /dev/line/inbox. Register it only in dev mode: it shows every message sent. */
export function registerLineInboxRoutes(app: FastifyInstance, db: Database): void {
  app.get('/dev/line/inbox', async (request, reply) => {
    const parsed = listQuery.safeParse(request.query);
    if (!parsed.success) return reply.code(400).send({ detail: '検索条件が不正です。', code: 'invalid' });
    const entries = await listInbox(db, parsed.data);
    reply.header('cache-control', 'no-store');
    if (parsed.data.format === 'json') return { messages: entries };
    const items = entries
      .map(
        (entry) => `<li><article>
<p class="meta"><time datetime="${escapeHtml(entry.created_at)}">${escapeHtml(entry.created_at)}</time> 宛先: <code>${escapeHtml(entry.to)}</code>${entry.reply_token ? '（応答メッセージ）' : ''}</p>
${entry.messages.map((message) => `<pre>${escapeHtml(messageText(message))}</pre>`).join('')}
<p class="meta">${entry.reply_token ? `応答トークン: <code>${escapeHtml(entry.reply_token)}</code>` : `リトライキー: <code>${escapeHtml(entry.retry_key)}</code>`}</p>
</article></li>`,
      )
      .join('');
    const body = `<p>LINEエミュレーター（開発モード）が受け取ったプッシュメッセージと応答メッセージです。新しい順に表示しています（${entries.length}件）。</p>
${items ? `<ol>${items}</ol>` : '<p>まだメッセージはありません。</p>'}`;
    return reply.type('text/html; charset=utf-8').send(devListPage('LINE受信箱（エミュレーター）', body));
  });
}

/** Flex cards read as their altText, then what the bubble draws (its buttons as 「label: link」). */
function messageText(message: LineMessage): string {
  if (message.type === 'text' || message.type === 'flex') return lineMessageReadableText(message);
  return `[${message.type}] ${JSON.stringify(message)}`;
}

/** The dev pages' shell (the emulator's look, wider for message bodies). */
export function devListPage(title: string, body: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
ol{list-style:none;padding:0}li{border:1px solid #ccc;border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.5rem;border-radius:4px}.meta{color:#555;font-size:.9rem}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
