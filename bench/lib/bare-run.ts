/**
 * The bare limits of one engine (bench/bare-server.ts): started on the benchmark's database before the app's server
 * (PGlite's folder belongs to one process at a time; PostgreSQL follows the same order), asked the sample requests,
 * then loaded like the app's endpoints: the customer search and the uncached day list at each connection count, then
 * bookings in a window of its own (bench/lib/booking.ts).
 */
import path from 'node:path';
import { askAll, samplePaths, type Answer } from './bare-compare';
import type { BookingItem } from './booking';
import { processCpuMs } from './cpu';
import type { BenchDatabase } from './databases';
import type { LoadResult } from './load';
import { measureBookings, measureReads, type Log } from './measure';
import { startBareServer } from './processes';
import type { BareRun } from './results';
import type { ReadEndpoint } from './scenarios';

export async function runBare(input: {
  database: BenchDatabase;
  salonId: number;
  timeZone: string;
  endpoints: ReadEndpoint[];
  staffToken: string;
  items: BookingItem[];
  connections: number[];
  perLevel: number;
  duration: number;
  hello: LoadResult[];
  log: Log;
}): Promise<BareRun & { answers: Answer[] }> {
  const { database, log } = input;
  const where: Record<string, string> =
    database.engine === 'pglite'
      ? { BARE_PGLITE_DIR: path.join(database.dataDir, 'db') }
      : { DATABASE_URL: database.serverEnv.DATABASE_URL! };
  const bare = await startBareServer(
    { ...where, SALON_ID: String(input.salonId), SALON_TZ: input.timeZone },
    path.join(database.dataDir, 'bare.log'),
  );
  const probes = { server: () => processCpuMs(bare.pid), db: database.cpuMs };
  const headers = { authorization: `Bearer ${input.staffToken}` };
  try {
    const answers = await askAll(bare.url, samplePaths(input.endpoints), headers);
    const reads = await measureReads({
      url: bare.url,
      endpoints: input.endpoints.map((endpoint) => ({ ...endpoint, label: `bare ${endpoint.label}` })),
      staffToken: input.staffToken,
      connections: input.connections,
      duration: input.duration,
      hello: input.hello,
      probes,
      log,
    });
    const booking = await measureBookings({
      url: bare.url,
      items: input.items,
      connections: input.connections,
      perLevel: input.perLevel,
      duration: input.duration,
      probes,
      log: (line) => log(`bare ${line}`),
    });
    return { reads, booking, answers };
  } catch (error) {
    log(`bare server output:\n${bare.output()}`);
    throw error;
  } finally {
    await bare.stop();
  }
}
