/** What every benchmark of one engine starts with: a fresh database with the data set, and the server's settings. */
import { randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '../../server/db/client';
import { localDateOf } from '../../src/shared/time';
import type { BenchDatabase } from './databases';
import { prepareSchema } from './databases';
import { seedBase, settleAfterBulkLoad, type Dataset, type DatasetShape } from './dataset';
import type { DatasetSummary } from './results';

export const TIME_ZONE = 'Asia/Tokyo';

export interface Secrets {
  jwtSecret: string;
  adminPassword: string;
}

export function newSecrets(): Secrets {
  return { jwtSecret: randomBytes(32).toString('hex'), adminPassword: randomBytes(12).toString('hex') };
}

/** The server process's environment: this database, these secrets, no demo data. */
export function serverEnv(database: BenchDatabase, secrets: Secrets, logLevel: string): Record<string, string> {
  return {
    ...database.serverEnv,
    JWT_SECRET: secrets.jwtSecret,
    ADMIN_PASSWORD: secrets.adminPassword,
    LOG_LEVEL: logLevel,
    SALON_TZ: TIME_ZONE,
  };
}

/** Schema, salon and superuser, then staff, menu, customers, opening slots and upcoming reservations. */
export async function seedDatabase(
  handle: DatabaseHandle,
  database: BenchDatabase,
  shape: DatasetShape,
  secrets: Secrets,
): Promise<Dataset> {
  const { salonId } = await prepareSchema(handle, {
    dataDir: database.dataDir,
    adminPassword: secrets.adminPassword,
    timeZone: TIME_ZONE,
  });
  return seedBase(handle.db, { salonId, shape, today: localDateOf(new Date(), TIME_ZONE), timeZone: TIME_ZONE });
}

export async function finishLoading(handle: DatabaseHandle): Promise<void> {
  await settleAfterBulkLoad(handle.db, handle.engine);
}

export function summarize(ds: Dataset, generationSeconds: number): DatasetSummary {
  return {
    customers: ds.customerCount,
    reservations: ds.upcomingCount + ds.historyCount,
    upcoming: ds.upcomingCount,
    history: ds.historyCount,
    historyPerDay: ds.historyPerDay,
    staff: ds.staffIds.length,
    services: ds.serviceIds.length,
    generationSeconds,
  };
}
