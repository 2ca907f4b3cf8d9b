import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { withClient } from './postgres-cluster';

/** Which engine this test run uses: the integration suite runs once per engine (see vitest.config.ts). */
export const testEngine: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated, empty database: in-memory PGlite, or a new database on the throwaway PostgreSQL
 * cluster that `npm test` started (TEST_POSTGRES_URL). Both are copies of the template that
 * tests/helpers/database-template.ts migrated once for the run. Call `drop()` when done.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { drop(): Promise<void>; url?: string }> {
  if (testEngine === 'pglite') {
    const handle = await openDatabase({ loadDataDir: await pgliteTemplate() });
    // Normally finds nothing to do; it would bring a template that lacked a migration up to date.
    await handle.migrate();
    return { ...handle, drop: () => handle.close() };
  }
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl)
    throw new Error('TEST_POSTGRES_URL is not set: run the suite through `npm test`, which starts PostgreSQL.');
  const template = inject('postgresTemplateDatabase');
  if (!template)
    throw new Error('no template database: the integration-postgres project sets one up (vitest.config.ts)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database ${name} template ${template}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The migrated PGlite cluster as a tarball, read once per test file; a new Blob for each database. */
let pgliteTemplateBytes: Promise<Uint8Array<ArrayBuffer>> | undefined;
async function pgliteTemplate(): Promise<Blob> {
  const file = inject('pgliteTemplateFile');
  if (!file) throw new Error('no PGlite template: the integration-pglite project sets one up (vitest.config.ts)');
  pgliteTemplateBytes ??= fs.readFile(file).then((bytes) => new Uint8Array(bytes));
  return new Blob([await pgliteTemplateBytes]);
}

declare module 'vitest' {
  /** What tests/helpers/database-template.ts, the integration projects' global setup, hands to the tests. */
  export interface ProvidedContext {
    /** integration-pglite: a file holding `dumpDataDir('none')` of a migrated, empty PGlite cluster. */
    pgliteTemplateFile?: string;
    /** integration-postgres: a migrated, empty database on TEST_POSTGRES_URL's cluster, nobody connected to it. */
    postgresTemplateDatabase?: string;
  }
}
