/** `npm run bench -- [--size small|full] [--engine both|pglite|postgres] [--growth] [--duration s] [--connections 10,100]` */
import path from 'node:path';
import type { Engine } from './databases';
import type { DatasetShape } from './dataset';

export type Size = 'full' | 'small';

export interface BenchOptions {
  size: Size;
  engines: Engine[];
  growth: boolean;
  /** Only render bench/results.md again from bench/results.json. */
  reportOnly: boolean;
  /** Seconds per measured run. */
  duration: number;
  connections: number[];
  shape: DatasetShape;
  /** Reservation totals of the growth series. */
  growthSteps: number[];
  /** Bookings prepared per connection level (each a different customer and free start); a run stops at `duration`. */
  bookingsPerLevel: number;
  logLevel: string;
  /** A folder for the server's V8 CPU profiles (node --cpu-prof), one per server process; none when unset. */
  profileDir?: string;
}

const SHAPES: Record<Size, DatasetShape> = {
  full: { customers: 50_000, reservations: 500_000, staff: 8, historyDays: 3 * 365, futureDays: 60, slotDays: 365 },
  small: { customers: 5_000, reservations: 20_000, staff: 8, historyDays: 3 * 365, futureDays: 60, slotDays: 365 },
};
const GROWTH_STEPS: Record<Size, number[]> = { full: [10_000, 100_000, 500_000], small: [2_000, 10_000, 20_000] };

export const USAGE = `Usage: npm run bench -- [options]
  --size full|small        full: 50,000 customers, 500,000 reservations (default); small: 5,000 and 20,000
  --engine both|pglite|postgres   default both
  --growth                 the read endpoints at growing history (full: 10k, 100k, 500k reservations) instead
                           of the main run; results are kept side by side in bench/results.json
  --duration <seconds>     per measured run (default 10, small 5)
  --connections <list>     default 10,100 (growth: 10)
  --log-level <level>      the server's LOG_LEVEL (default warn: no line per request)
  --profile <folder>       write the server's CPU profile (node --cpu-prof) there, to open in Chrome DevTools
  --report                 measure nothing: render bench/results.md again from bench/results.json`;

export function parseOptions(argv: string[]): BenchOptions {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (['growth', 'help', 'report'].includes(name)) args.set(name, 'true');
    else args.set(name, inline ?? argv[++i] ?? '');
  }
  if (args.has('help')) throw new Error(USAGE);
  const size = (args.get('size') ?? 'full') as Size;
  if (!(size in SHAPES)) throw new Error(`--size must be full or small\n${USAGE}`);
  const engine = args.get('engine') ?? 'both';
  if (!['both', 'pglite', 'postgres'].includes(engine))
    throw new Error(`--engine must be both, pglite or postgres\n${USAGE}`);
  const growth = args.has('growth');
  const connections = (args.get('connections') ?? (growth ? '10' : '10,100')).split(',').map(Number);
  const duration = Number(args.get('duration') ?? (size === 'full' ? 10 : 5));
  if (connections.some((c) => !Number.isInteger(c) || c < 1) || !(duration > 0))
    throw new Error(`bad --connections or --duration\n${USAGE}`);
  return {
    size,
    engines: engine === 'both' ? ['pglite', 'postgres'] : [engine as Engine],
    growth,
    reportOnly: args.has('report'),
    duration,
    connections,
    shape: SHAPES[size],
    growthSteps: GROWTH_STEPS[size],
    bookingsPerLevel: size === 'full' ? 6000 : 1500,
    logLevel: args.get('log-level') ?? 'warn',
    profileDir: args.has('profile') ? path.resolve(args.get('profile')!) : undefined,
  };
}
