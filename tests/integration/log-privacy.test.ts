import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffUsers } from '../../server/db/schema';
import { startTestApp, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';

/**
 * What the server's log lines may carry (server/logging.ts): operators and log services keep them, so no
 * names, phone numbers, e-mail addresses or link tokens, whatever a request brings.
 */
describe(`log lines on ${testEngine}`, () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('name the path and the query parameters, never their values or a link token', async () => {
    const [admin] = await t.database.db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    const { access } = await t.auth.issueTokenPair('staff', admin!.id);
    const search = await t.api(
      `/api/admin/customers/?name=${encodeURIComponent('山田 花子')}&email=hanako%40example.com&phone_number=09012345678`,
      { token: access },
    );
    expect(search.status).toBe(200);
    const token = 'Q2xpY2tIZXJlVG9MaW5rMQ';
    expect((await t.api(`/api/link-customer/${token}/`)).status).toBe(404);
    // A staff member's calendar URL carries its secret in the path.
    const me = await t.api('/api/admin/me/', { token: access });
    const feedPath = new URL(me.body.calendar_feed_url as string).pathname;
    const feedToken = /\/api\/calendar\/([^/]+)\.ics$/.exec(feedPath)![1]!;
    expect((await t.api(feedPath)).status).toBe(200);

    const logged = lines.join('\n');
    const requests = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).filter((line) => line.req);
    expect(requests.map((line) => line.req!.url)).toEqual(
      expect.arrayContaining([
        '/api/admin/customers/?name=…&email=…&phone_number=…',
        '/api/link-customer/[token]/',
        '/api/calendar/[token].ics',
      ]),
    );
    for (const secret of ['山田', encodeURIComponent('山田'), 'hanako', '09012345678', token, feedToken]) {
      expect(logged).not.toContain(secret);
    }
  });
});
