/** One autocannon run, reduced to what the report prints. */
import autocannon, { type RequestSpec } from 'autocannon';

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Completed requests per second over the whole run (all statuses). */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses per HTTP status, e.g. { "200": 5120 }. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** CPU milliseconds per completed request spent by the server process and by the database (PostgreSQL only). */
  serverCpuMs?: number;
  dbCpuMs?: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  /** Stop after this many requests instead of after a duration... */
  amount?: number;
  /** ...or after this many seconds, whichever comes first (requests in flight at that moment are not counted). */
  maxSeconds?: number;
  headers?: Record<string, string>;
  /** Each request's path (and more) comes from here; without it every request is GET `url`. */
  requests?: RequestSpec[];
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  // autocannon rejects an explicit `duration: undefined`: only the options given are passed.
  const run = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
    timeout: 30,
  });
  const timer =
    options.amount !== undefined && options.maxSeconds
      ? setTimeout(() => run.stop(), options.maxSeconds * 1000)
      : undefined;
  let result;
  try {
    result = await run;
  } finally {
    clearTimeout(timer);
  }
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
  );
  const completed = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  return {
    connections: options.connections,
    seconds: result.duration,
    rps: result.duration > 0 ? completed / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: completed,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Requests that walk round a list of paths, one per request, so that no single cached answer is measured. Pass the
 * same `cursor` to several runs to go on where the last one stopped.
 */
export function rotatingPaths(paths: string[], cursor = { next: 0 }): RequestSpec[] {
  return [
    {
      method: 'GET',
      setupRequest: (request) => {
        request.path = paths[cursor.next % paths.length]!;
        cursor.next += 1;
        return request;
      },
    },
  ];
}
