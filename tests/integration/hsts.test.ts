import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';

/**
 * Strict-Transport-Security on a production server (server/plugins/security-headers.ts): sent on every answer when
 * PUBLIC_URL is https, never when it is http (it would lock that host name out of plain http).
 */
describe(`HSTS in production on ${testEngine}`, () => {
  let https: TestApp;
  let http: TestApp;
  beforeAll(async () => {
    https = await startTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://salon.example.jp' } });
    http = await startTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'http://salon.example.jp' } });
  });
  afterAll(async () => {
    await https?.close();
    await http?.close();
  });

  it('is sent for a year or more, with sub-domains, on pages, API answers and errors alike', async () => {
    for (const path of ['/api/health/', '/api/salons/', '/api/admin/customers/', '/no-such-page']) {
      const value = (await https.api(path)).headers.get('strict-transport-security');
      expect(value, path).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(Number(/max-age=(\d+)/.exec(value!)![1]), path).toBeGreaterThanOrEqual(31_536_000);
    }
  });

  it('is absent with an http PUBLIC_URL', async () => {
    for (const path of ['/api/health/', '/api/salons/']) {
      const response = await http.api(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });
});
