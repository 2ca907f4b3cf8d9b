/**
 * The main run for one engine: generate the full data set, explain the read queries, load the bare limits
 * (bench/lib/bare-run.ts), then start the real server, check that it answers what the bare server answered, load it
 * (reads at each connection count, then bookings), and check the invariant in SQL.
 */
import path from 'node:path';
import { assertSameAnswers, askAll, samplePaths } from './bare-compare';
import { runBare } from './bare-run';
import { checkBookings, lastReservationId, prepareBareBookings, prepareBookings } from './booking';
import { processCpuMs } from './cpu';
import { createBenchDatabase, type Engine } from './databases';
import { addHistory } from './dataset';
import { explainReads } from './explain';
import { BOOKING_WARMUP, measureBookings, measureHello, measureReads, type Log } from './measure';
import type { BenchOptions } from './options';
import { profileArgs, startAppServer } from './processes';
import type { EngineRun } from './results';
import { BARE_READS, readEndpoints } from './scenarios';
import { finishLoading, newSecrets, seedDatabase, serverEnv, summarize } from './setup';
import { superuserToken } from './tokens';

export async function runMain(engine: Engine, options: BenchOptions, log: Log): Promise<EngineRun> {
  const database = await createBenchDatabase(engine, log);
  const secrets = newSecrets();
  try {
    let handle = await database.open();
    const started = Date.now();
    log(`generating ${options.shape.customers} customers and ${options.shape.reservations} reservations...`);
    const ds = await seedDatabase(handle, database, options.shape, secrets);
    await addHistory(handle.db, ds, 0, options.shape.reservations - ds.upcomingCount);
    await finishLoading(handle);
    const generationSeconds = (Date.now() - started) / 1000;
    log(`data ready in ${generationSeconds.toFixed(0)} s`);

    const explain = await explainReads(handle, ds);
    const bookingCount = BOOKING_WARMUP + options.bookingsPerLevel * options.connections.length;
    const bookings = await prepareBookings(handle.db, ds, bookingCount, secrets.jwtSecret);
    const bareBookings = await prepareBareBookings(handle.db, ds, bookingCount);
    const staffToken = await superuserToken(handle.db, secrets.jwtSecret);
    const lastIdBefore = await lastReservationId(handle.db);
    // PGlite belongs to one process: the bare server's, then the app server's, from here on.
    if (engine === 'pglite') await handle.close();

    const hello = await measureHello({
      connections: options.connections,
      duration: options.duration,
      logDir: database.dataDir,
      log,
    });
    const endpoints = readEndpoints(ds);
    const bareEndpoints = endpoints.filter((endpoint) => BARE_READS.includes(endpoint.key));
    const { answers: bareAnswers, ...bare } = await runBare({
      database,
      salonId: ds.salonId,
      timeZone: ds.timeZone,
      endpoints: bareEndpoints,
      staffToken,
      items: bareBookings,
      connections: options.connections,
      perLevel: options.bookingsPerLevel,
      duration: options.duration,
      hello,
      log,
    });
    const server = await startAppServer(
      serverEnv(database, secrets, options.logLevel),
      path.join(database.dataDir, 'server.log'),
      profileArgs(options),
    );
    const probes = { server: () => processCpuMs(server.pid), db: database.cpuMs };
    let reads;
    let booking;
    try {
      const answers = await askAll(server.url, samplePaths(bareEndpoints), { authorization: `Bearer ${staffToken}` });
      assertSameAnswers(answers, bareAnswers);
      log(`the bare server answered ${answers.length} sample requests as the app does`);
      reads = await measureReads({
        url: server.url,
        endpoints,
        staffToken,
        connections: options.connections,
        duration: options.duration,
        hello,
        probes,
        log,
      });
      booking = await measureBookings({
        url: server.url,
        items: bookings,
        connections: options.connections,
        perLevel: options.bookingsPerLevel,
        duration: options.duration,
        probes,
        log,
      });
    } catch (error) {
      log(`server output:\n${server.output()}`);
      throw error;
    } finally {
      await server.stop();
    }

    if (engine === 'pglite') handle = await database.open();
    const check = await checkBookings(handle.db, lastIdBefore, ds);
    await handle.close();
    log(
      `after the bookings: ${check.createdByBench} created rows (${check.createdByBare} by the bare server), ` +
        `${check.overlappingPairs} overlapping pairs`,
    );
    return {
      engine,
      dataset: summarize(ds, generationSeconds),
      hello,
      reads,
      booking: { ...booking, check },
      bare,
      comparedAnswers: bareAnswers.length,
      explain,
    };
  } finally {
    database.dispose();
  }
}
