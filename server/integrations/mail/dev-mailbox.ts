/**
 * The dev mailbox (docs/architecture.md#operating-contract): while no SMTP_URL is configured, every e-mail is kept here and shown at
 * /dev/mail (HTML, or JSON with ?format=json for tests and scripts).
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devMail } from '../../db/schema';
import { escapeHtml } from '../line/emulator';
import { devListPage } from '../line/inbox';

interface DevMailEntry {
  id: number;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** Several e-mails in one statement (the mailer passes those sent side by side together). */
export async function storeDevMail(
  db: Database,
  mails: ReadonlyArray<{ to: string; subject: string; text: string }>,
): Promise<void> {
  if (mails.length === 0) return;
  // As one JSON parameter, as the LINE inbox stores its pushes (server/integrations/line/inbox.ts says why).
  const rows = JSON.stringify(mails.map(({ to, subject, text }) => ({ to, subject, text })));
  await db.execute(sql`
    insert into dev_mail ("to", subject, text)
    select m."to", m.subject, m.text from jsonb_to_recordset(${rows}::jsonb) as m("to" text, subject text, text text)`);
}

/** Newest first. */
export async function listDevMail(
  db: Database,
  options: { to?: string; limit?: number } = {},
): Promise<DevMailEntry[]> {
  const rows = await db
    .select()
    .from(devMail)
    .where(options.to ? eq(devMail.to, options.to) : undefined)
    .orderBy(desc(devMail.id))
    .limit(options.limit ?? 200);
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

const listQuery = z.object({
  format: z.enum(['html', 'json']).default('html'),
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** GET /dev/mail. Register it only in dev mode: it shows every e-mail sent. */
export function registerDevMailboxRoutes(app: FastifyInstance, db: Database): void {
  app.get('/dev/mail', async (request, reply) => {
    const parsed = listQuery.safeParse(request.query);
    if (!parsed.success) return reply.code(400).send({ detail: '検索条件が不正です。', code: 'invalid' });
    const mails = await listDevMail(db, parsed.data);
    reply.header('cache-control', 'no-store');
    if (parsed.data.format === 'json') return { messages: mails };
    const items = mails
      .map(
        (mail) => `<li><article>
<p class="meta"><time datetime="${escapeHtml(mail.created_at)}">${escapeHtml(mail.created_at)}</time> 宛先: <code>${escapeHtml(mail.to)}</code></p>
<h2>${escapeHtml(mail.subject)}</h2>
<pre>${escapeHtml(mail.text)}</pre>
</article></li>`,
      )
      .join('');
    const body = `<p>開発用メールボックスです。送信されたメールを新しい順に表示しています（${mails.length}件）。</p>
${items ? `<ol>${items}</ol>` : '<p>まだメールはありません。</p>'}`;
    return reply.type('text/html; charset=utf-8').send(devListPage('開発用メールボックス', body));
  });
}
