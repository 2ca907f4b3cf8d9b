/** The load phases: the bare Fastify limit, the read endpoints, booking creation. */
import path from 'node:path';
import { bookingRequests, type BookingItem } from './booking';
import { processCpuMs } from './cpu';
import { rotatingPaths, runLoad, type LoadResult } from './load';
import { startHelloServer } from './processes';
import type { BookingRun, EndpointResult } from './results';
import type { ReadEndpoint } from './scenarios';

const WARMUP_SECONDS = 2;
export const BOOKING_WARMUP = 100;

export type Log = (line: string) => void;

/** Readers of CPU time used so far (milliseconds) by the server and by the database. */
export interface Probes {
  server?: () => number | undefined;
  db?: () => number | undefined;
}

/**
 * Waits until the server has worked off what a run left queued (autocannon stops sending, the server still
 * answers the requests it had accepted), so that one run's backlog is not measured as the next run's latency.
 */
async function settle(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = Date.now();
    const ok = await fetch(`${url}/api/config/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && Date.now() - started < 50) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** CPU of the server and the database together so far (undefined parts count 0). */
const cpuNow = (probes: Probes) => (probes.server?.() ?? 0) + (probes.db?.() ?? 0);

/** Quiet: less than this much CPU (server and database together) over one IDLE_WINDOW_MS. */
const IDLE_CPU_MS = 10;
const IDLE_WINDOW_MS = 250;

/**
 * Waits until the server and the database are idle (at most 30 s): what a run caused after its last answer (the
 * app's outbox worker sending the bookings' messages) belongs to that run's CPU.
 */
async function untilIdle(probes: Probes): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = cpuNow(probes);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const now = cpuNow(probes);
    if (now - last < IDLE_CPU_MS) return;
    last = now;
  }
}

/**
 * The run's CPU per request, server and database. `tail`: up to the moment both are idle again (untilIdle), so
 * that work a request leaves for later (the app's outbox) is counted with it.
 */
async function withCpu(probes: Probes, run: () => Promise<LoadResult>, tail = false): Promise<LoadResult> {
  const before = [probes.server?.(), probes.db?.()];
  const result = await run();
  if (tail) await untilIdle(probes);
  const after = [probes.server?.(), probes.db?.()];
  const perRequest = (i: number) =>
    before[i] !== undefined && after[i] !== undefined && result.requests > 0
      ? (after[i]! - before[i]!) / result.requests
      : undefined;
  return { ...result, serverCpuMs: perRequest(0), dbCpuMs: perRequest(1) };
}

export function describe(label: string, run: LoadResult): string {
  const other = Object.entries(run.statuses).filter(([code]) => !code.startsWith('2'));
  return (
    `${label.padEnd(48)} c=${String(run.connections).padStart(3)}  ${Math.round(run.rps).toString().padStart(6)} req/s  ` +
    `p50 ${run.p50.toFixed(0).padStart(5)} ms  p99 ${run.p99.toFixed(0).padStart(5)} ms` +
    (run.serverCpuMs !== undefined ? `  cpu/req ${run.serverCpuMs.toFixed(2)} ms` : '') +
    (run.dbCpuMs !== undefined ? ` + db ${run.dbCpuMs.toFixed(2)} ms` : '') +
    (other.length || run.errors
      ? `  (${other.map(([c, n]) => `${n}×${c}`).join(', ')}${run.errors ? ` ${run.errors} errors` : ''})`
      : '')
  );
}

/** The hello-world server in its own process, loaded at each connection count. */
export async function measureHello(input: {
  connections: number[];
  duration: number;
  logDir: string;
  log: Log;
}): Promise<LoadResult[]> {
  const hello = await startHelloServer(path.join(input.logDir, 'hello.log'));
  try {
    await runLoad({ url: hello.url, connections: 10, duration: WARMUP_SECONDS });
    const results: LoadResult[] = [];
    const probes = { server: () => processCpuMs(hello.pid) };
    for (const connections of input.connections) {
      const result = await withCpu(probes, () => runLoad({ url: hello.url, connections, duration: input.duration }));
      input.log(describe('bare Fastify hello-world', result));
      results.push(result);
    }
    return results;
  } finally {
    await hello.stop();
  }
}

export async function measureReads(input: {
  url: string;
  endpoints: ReadEndpoint[];
  staffToken: string;
  connections: number[];
  duration: number;
  hello: LoadResult[];
  probes: Probes;
  log: Log;
}): Promise<EndpointResult[]> {
  const results: EndpointResult[] = [];
  for (const endpoint of input.endpoints) {
    const headers: Record<string, string> =
      endpoint.auth === 'staff' ? { authorization: `Bearer ${input.staffToken}` } : {};
    const cursor = endpoint.distinct ? { next: 0 } : undefined;
    await runLoad({
      url: input.url,
      connections: 10,
      duration: WARMUP_SECONDS,
      headers,
      requests: rotatingPaths(endpoint.paths, cursor),
    });
    await settle(input.url);
    for (const connections of input.connections) {
      const result = await withCpu(input.probes, () =>
        runLoad({
          url: input.url,
          connections,
          duration: input.duration,
          headers,
          requests: rotatingPaths(endpoint.paths, cursor),
        }),
      );
      const limit = input.hello.find((h) => h.connections === connections)?.rps ?? Number.NaN;
      await settle(input.url);
      input.log(describe(endpoint.label, result));
      results.push({ ...result, key: endpoint.key, ratio: result.rps / limit });
    }
  }
  return results;
}

function bookingRun(result: LoadResult): BookingRun {
  const created = result.statuses['201'] ?? 0;
  return {
    ...result,
    created,
    conflicts: result.statuses['409'] ?? 0,
    bookingsPerSecond: result.seconds > 0 ? created / result.seconds : 0,
  };
}

/**
 * A warm-up slice, then at each connection count up to `perLevel` bookings for at most `duration` seconds;
 * each item (customer and start) is used once at most.
 */
export async function measureBookings(input: {
  url: string;
  items: BookingItem[];
  connections: number[];
  perLevel: number;
  duration: number;
  probes: Probes;
  log: Log;
}): Promise<{ warmup: BookingRun; runs: BookingRun[] }> {
  let offset = 0;
  const slice = (count: number) => input.items.slice(offset, (offset += count));
  const warmupItems = slice(BOOKING_WARMUP);
  const warmup = bookingRun(
    await runLoad({
      url: input.url,
      connections: 10,
      amount: warmupItems.length,
      requests: bookingRequests(warmupItems),
    }),
  );
  await settle(input.url);
  const runs: BookingRun[] = [];
  for (const connections of input.connections) {
    const items = slice(input.perLevel);
    const run = bookingRun(
      await withCpu(
        input.probes,
        () =>
          runLoad({
            url: input.url,
            connections,
            amount: items.length,
            maxSeconds: input.duration,
            requests: bookingRequests(items),
          }),
        true,
      ),
    );
    await settle(input.url);
    input.log(`${describe('POST /api/reservations/', run)}  ${run.created} created, ${run.conflicts} taken`);
    runs.push(run);
  }
  return { warmup, runs };
}
