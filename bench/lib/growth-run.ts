/**
 * The growth series for one engine: the same salon, customers and upcoming bookings, with the history growing
 * from yesterday backwards (full size: 10k, 100k, 500k reservations). At each step the read endpoints are
 * loaded and their queries explained: availability and the day list should not notice the history.
 */
import path from 'node:path';
import { processCpuMs } from './cpu';
import { createBenchDatabase, type Engine } from './databases';
import { addHistory } from './dataset';
import { explainReads } from './explain';
import { measureHello, measureReads, type Log } from './measure';
import type { BenchOptions } from './options';
import { profileArgs, startAppServer } from './processes';
import type { GrowthStep } from './results';
import { readEndpoints } from './scenarios';
import { finishLoading, newSecrets, seedDatabase, serverEnv } from './setup';
import { superuserToken } from './tokens';

export async function runGrowth(engine: Engine, options: BenchOptions, log: Log): Promise<GrowthStep[]> {
  const database = await createBenchDatabase(engine, log);
  const secrets = newSecrets();
  const steps: GrowthStep[] = [];
  try {
    let handle = await database.open();
    // The history density is that of the largest step, so each step reaches further into the past.
    const largest = Math.max(...options.growthSteps);
    const ds = await seedDatabase(handle, database, { ...options.shape, reservations: largest }, secrets);
    const staffToken = await superuserToken(handle.db, secrets.jwtSecret);
    for (const total of options.growthSteps) {
      await addHistory(handle.db, ds, ds.historyCount, total - ds.upcomingCount);
      await finishLoading(handle);
      log(
        `${engine}: ${ds.upcomingCount + ds.historyCount} reservations (history back to ${Math.ceil(ds.historyCount / ds.historyPerDay)} days ago)`,
      );
      const explain = await explainReads(handle, ds);
      if (engine === 'pglite') await handle.close();

      const hello = await measureHello({
        connections: options.connections,
        duration: options.duration,
        logDir: database.dataDir,
        log,
      });
      const server = await startAppServer(
        serverEnv(database, secrets, options.logLevel),
        path.join(database.dataDir, `server-${total}.log`),
        profileArgs(options),
      );
      const probes = { server: () => processCpuMs(server.pid), db: database.cpuMs };
      try {
        const reads = await measureReads({
          url: server.url,
          endpoints: readEndpoints(ds),
          staffToken,
          connections: options.connections,
          duration: options.duration,
          hello,
          probes,
          log,
        });
        steps.push({ reservations: ds.upcomingCount + ds.historyCount, hello, reads, explain });
      } catch (error) {
        log(`server output:\n${server.output()}`);
        throw error;
      } finally {
        await server.stop();
      }
      if (engine === 'pglite') handle = await database.open();
    }
    await handle.close();
    return steps;
  } finally {
    database.dispose();
  }
}
