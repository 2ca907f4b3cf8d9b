import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';

/** Which engine this test run uses: the integration suite runs once per engine (see vitest.config.ts). */
export const testEngine: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated, empty database: in-memory PGlite, or a new database on the throwaway PostgreSQL
 * cluster that `npm test` started (TEST_POSTGRES_URL). Call `drop()` when done.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { drop(): Promise<void>; url?: string }> {
  if (testEngine === 'pglite') {
    const handle = await openDatabase({});
    await handle.migrate();
    return { ...handle, drop: () => handle.close() };
  }
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl)
    throw new Error('TEST_POSTGRES_URL is not set: run the suite through `npm test`, which starts PostgreSQL.');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
