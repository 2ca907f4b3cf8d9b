import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '#server/db/client';
import { listActiveServices } from '#server/scheduling/menu';
import { testEngine } from '#tests/helpers/database';
import { createScratchDatabase } from '#tests/helpers/postgres-cluster';

/** The migration that moved an option's service into service_option_links. */
const SHARED_OPTIONS_MIGRATION = 26;

/** A copy of the migrations folder whose journal stops before `idx`: the schema as it was before that migration. */
async function migrationsBefore(idx: number): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'migrations-before-'));
  await fs.cp(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await fs.readFile(journalFile, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < idx);
  await fs.writeFile(journalFile, JSON.stringify(journal));
  return dir;
}

async function rows<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Migration 0026 on a database that already has options, each of one service: every option stays allowed by the
 * service it belonged to (deleted ones included), none is merged, and the column is gone.
 */
describe(`migration 0026 (options shared between menus) on ${testEngine}`, { timeout: 120_000 }, () => {
  let handle: DatabaseHandle;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    const oldMigrations = await migrationsBefore(SHARED_OPTIONS_MIGRATION);
    cleanups.push(() => fs.rm(oldMigrations, { recursive: true, force: true }));
    if (testEngine === 'pglite') {
      handle = await openDatabase({});
      await migratePglite(handle.db as never, { migrationsFolder: oldMigrations });
    } else {
      const scratch = await createScratchDatabase(process.env.TEST_POSTGRES_URL!, 'migration');
      cleanups.push(() => scratch.drop());
      handle = await openDatabase({ databaseUrl: scratch.url });
      await migratePostgres(handle.db as never, { migrationsFolder: oldMigrations });
    }
    cleanups.unshift(() => handle.close());
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('links each existing option to its own service and drops service_options.service_id', async () => {
    const [salon] = await rows<{ id: number }>(handle, sql`insert into salons (name) values ('サロン') returning id`);
    const [french, gradation] = await rows<{ id: number }>(
      handle,
      sql`insert into services (salon_id, name, price, duration_minutes) values
          (${salon!.id}, 'フレンチ', 6600, 60), (${salon!.id}, 'グラデーション', 7700, 90) returning id`,
    );
    const options = await rows<{ id: number }>(
      handle,
      sql`insert into service_options (salon_id, service_id, name, price, duration_minutes, sort_order, is_active) values
          (${salon!.id}, ${french!.id}, 'ジェルオフ', 1100, 30, 0, true),
          (${salon!.id}, ${french!.id}, 'アート1本', 550, 10, 1, true),
          (${salon!.id}, ${gradation!.id}, 'ジェルオフ', 1320, 30, 0, true),
          (${salon!.id}, ${gradation!.id}, '終了したオプション', 550, 10, 1, false) returning id`,
    );
    const [frenchOff, frenchArt, gradationOff, retired] = options.map((option) => option.id);

    await handle.migrate();

    const links = await rows<{ service_id: number; option_id: number }>(
      handle,
      sql`select service_id, option_id from service_option_links order by option_id`,
    );
    expect(links).toEqual([
      { service_id: french!.id, option_id: frenchOff },
      { service_id: french!.id, option_id: frenchArt },
      { service_id: gradation!.id, option_id: gradationOff },
      { service_id: gradation!.id, option_id: retired },
    ]);
    const columns = await rows<{ column_name: string }>(
      handle,
      sql`select column_name from information_schema.columns where table_name = 'service_options'`,
    );
    expect(columns.map((column) => column.column_name)).not.toContain('service_id');
    // Not merged: the two ジェルオフ stay two rows with their own prices, each under its own menu, in menu order.
    const menu = await listActiveServices(handle.db, salon!.id);
    expect(menu.map((service) => [service.name, service.options.map((o) => [o.id, o.name, o.price])])).toEqual([
      [
        'フレンチ',
        [
          [frenchOff, 'ジェルオフ', 1100],
          [frenchArt, 'アート1本', 550],
        ],
      ],
      ['グラデーション', [[gradationOff, 'ジェルオフ', 1320]]],
    ]);
  });
});
