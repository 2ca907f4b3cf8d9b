import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase, PGLITE_EXTENSIONS } from '../../server/db/client';
import { createScratchDatabase } from './postgres-cluster';

/**
 * The integration projects' global setup (vitest.config.ts): the migrations run once per run, into a template
 * that every test database is copied from (tests/helpers/database.ts), instead of once per test app. For PGlite
 * the template is a dump of a migrated cluster in a temporary file, which `loadDataDir` opens in about a second,
 * where a new cluster costs PGlite's initdb (several seconds on two cores). For PostgreSQL it is a migrated
 * database that `CREATE DATABASE … TEMPLATE` copies. Every test database still runs the migrator (which finds
 * nothing to do), so the migrations from an empty database are tested here and each copy has the current schema.
 * docs/decisions/0014-migrated-template-databases-in-tests.md says why.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // integration-<engine> and load-<engine> (vitest.config.ts)
  if (project.name.endsWith('-pglite')) return pgliteTemplate(project);
  if (project.name.endsWith('-postgres')) return postgresTemplate(project);
  throw new Error(`tests/helpers/database-template.ts: no template for project ${project.name}`);
}

async function pgliteTemplate(project: TestProject) {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  let file: string | undefined;
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    // Uncompressed: a test database opens it for every app it starts, and gunzip would cost more than the disk.
    const dump = await client.dumpDataDir('none');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'salon-template-'));
    file = path.join(dir, 'pglite-template.tar');
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('pgliteTemplateFile', file);
  return async () => {
    if (file) await fs.rm(path.dirname(file), { recursive: true, force: true });
  };
}

async function postgresTemplate(project: TestProject) {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  // Without it every test fails with tests/helpers/database.ts's explanation; nothing to prepare.
  if (!adminUrl) return async () => {};
  const template = await createScratchDatabase(adminUrl, 'template');
  const handle = await openDatabase({ databaseUrl: template.url });
  try {
    await handle.migrate();
  } finally {
    // CREATE DATABASE … TEMPLATE refuses a template that anyone is connected to.
    await handle.close();
  }
  project.provide('postgresTemplateDatabase', template.name);
  return () => template.drop();
}
