import path from 'node:path';
import { z } from 'zod';
import { cheapHashProblem, TEST_CHEAP_PASSWORD_HASH } from './features/auth/passwords';
import { parsePushHosts } from './integrations/web-push/endpoint';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** `true`, `false`, or how many proxies stand in front. */
const trustProxyFromString = z
  .string()
  .regex(/^(true|false|[1-9][0-9]?)$/, 'must be true, false or a number of proxy hops (1-99)')
  .transform((value): boolean | number => (value === 'true' ? true : value === 'false' ? false : Number(value)));
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());

/** Every environment variable of docs/architecture.md#operating-contract. All are optional; defaults make `npm start` work as is. */
const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: optionalUrl,
  SALON_TZ: z.string().default('Asia/Tokyo').refine(isKnownTimeZone, 'is not a time zone known to this Node.js'),
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 60 * 60),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
  DEMO_DATA: booleanFromString.default(true),
  LINE_LOGIN_CHANNEL_ID: optionalString,
  LINE_LOGIN_CHANNEL_SECRET: optionalString,
  LINE_MESSAGING_CHANNEL_SECRET: optionalString,
  LINE_MESSAGING_ACCESS_TOKEN: optionalString,
  /** Runs the built-in LINE emulator and the /dev pages on a public address; unset = only on a loopback one. */
  LINE_EMULATOR: z.preprocess(emptyAsUndefined, booleanFromString.optional()),
  LINE_AUTH_BASE: z.url().default('https://access.line.me'),
  LINE_API_BASE: z.url().default('https://api.line.me'),
  /**
   * Web Push for staff (server/integrations/web-push): the VAPID key pair (base64url, as web-push makes them) and the
   * contact push services see (mailto: or https:). Unset: a pair is made once and kept in DATA_DIR.
   */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(mailto:|https:)/, 'must start with mailto: or https:')
      .optional(),
  ),
  /** Push service hosts accepted besides the browsers' own (comma-separated, `*.domain` for sub-domains). */
  WEB_PUSH_HOSTS: optionalString,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('ネイルサロン <no-reply@localhost>'),
  UPLOAD_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Failed login attempts allowed per IP address and login ID in LOGIN_RATE_WINDOW_SECONDS; three times as many
   * per address over all login IDs, and beyond twice as many per login ID each attempt waits longer
   * (server/plugins/login-limits.ts).
   */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /** Bookings and cancellations one customer may make in BOOKING_RATE_WINDOW_SECONDS (each one sends mail). */
  BOOKING_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  BOOKING_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60),
  /**
   * カルテ photos one customer may upload in PHOTO_UPLOAD_RATE_WINDOW_SECONDS; a staff member five times as many
   * (server/features/karte/upload-limits.ts).
   */
  PHOTO_UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  PHOTO_UPLOAD_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60),
  /** Free space (MB) GET /api/health/ requires on the folders this instance writes (DATA_DIR, UPLOAD_DIR). */
  HEALTH_MIN_FREE_MB: z.coerce.number().int().min(0).default(64),
  /** Distinct e-mail addresses one customer may book with in 24 hours. */
  BOOKING_EMAIL_ADDRESS_LIMIT: z.coerce.number().int().min(1).default(3),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, trustProxyFromString.default(false)),
});

export type Env = Omit<z.output<typeof envSchema>, 'TRUST_PROXY'> & {
  /**
   * True when the built-in LINE emulator, the LINE inbox and the dev mailbox run: no LINE channel is configured
   * and either PUBLIC_URL is a loopback address (a developer's machine) or LINE_EMULATOR=true says so.
   */
  lineDevMode: boolean;
  /** PUBLIC_URL, or http://HOST:PORT without it: where browsers reach the app. */
  publicUrl: string;
  /** TRUST_PROXY parsed: false, true or the number of proxies in front (app.ts takes true as one). */
  trustProxy: boolean | number;
  dataDir: string;
  uploadDir: string;
  /** NODE_ENV=production: no plain-http loopback push endpoints (integrations/web-push/endpoint.ts). */
  production: boolean;
  /** WEB_PUSH_HOSTS parsed. */
  webPushHosts: string[];
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses the environment once; one error lists every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  // Checked apart from the schema so that it is reported together with every other problem.
  if (Boolean(source.LINE_LOGIN_CHANNEL_ID) !== Boolean(source.LINE_LOGIN_CHANNEL_SECRET)) {
    problems.push(
      'LINE_LOGIN_CHANNEL_SECRET: LINE_LOGIN_CHANNEL_ID and LINE_LOGIN_CHANNEL_SECRET must be set together',
    );
  }
  if (Boolean(source.VAPID_PUBLIC_KEY) !== Boolean(source.VAPID_PRIVATE_KEY)) {
    problems.push('VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  }
  // A test-only switch to cheaper password hashes (server/features/auth/passwords.ts): never in a real start.
  if (source[TEST_CHEAP_PASSWORD_HASH] && source.NODE_ENV !== 'test') problems.push(cheapHashProblem);
  const pushHosts = parsePushHosts(source.WEB_PUSH_HOSTS);
  if (pushHosts.problem) problems.push(`WEB_PUSH_HOSTS: ${pushHosts.problem}`);
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  const { TRUST_PROXY: trustProxy, ...env } = result.data;
  const publicUrl = env.PUBLIC_URL ?? `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${env.PORT}`;
  const lineProblem = lineLoginProblem(env, publicUrl, source.NODE_ENV === 'production');
  if (lineProblem) throw new EnvError([lineProblem]);
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    lineDevMode: !env.LINE_LOGIN_CHANNEL_ID,
    publicUrl,
    trustProxy,
    dataDir,
    uploadDir: path.resolve(env.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
    production: source.NODE_ENV === 'production',
    webPushHosts: pushHosts.hosts,
  };
}

const SET_CHANNEL = 'set LINE_LOGIN_CHANNEL_ID and LINE_LOGIN_CHANNEL_SECRET';
const SET_LINE = `${SET_CHANNEL}, or LINE_EMULATOR=true to run the built-in LINE emulator (anyone can log in as any LINE user)`;

/**
 * Customers can only log in through LINE, so the app needs a LINE channel or the emulator. The emulator lets
 * anyone log in as any LINE user and its /dev pages show every message sent, so it runs by itself only on a
 * developer's machine: a loopback PUBLIC_URL and a loopback HOST (a loopback PUBLIC_URL on HOST=0.0.0.0 still
 * answers the whole network), not NODE_ENV=production. Elsewhere it must be asked for (LINE_EMULATOR=true, a trial
 * or staging server), and never with NODE_ENV=production: the salon's real server cannot run it by a flag left set.
 */
function lineLoginProblem(
  env: { LINE_LOGIN_CHANNEL_ID?: string; LINE_EMULATOR?: boolean; HOST: string },
  publicUrl: string,
  production: boolean,
): string | null {
  if (env.LINE_LOGIN_CHANNEL_ID) {
    return env.LINE_EMULATOR
      ? 'LINE_EMULATOR: the emulator cannot run while a LINE channel is configured; unset LINE_EMULATOR or LINE_LOGIN_CHANNEL_ID'
      : null;
  }
  if (production) {
    return env.LINE_EMULATOR
      ? `LINE_EMULATOR: the emulator (anyone can log in as any LINE user) never runs with NODE_ENV=production; ${SET_CHANNEL}, or leave NODE_ENV unset on a trial or staging server`
      : `LINE_LOGIN_CHANNEL_ID: NODE_ENV=production and no LINE channel configured; ${SET_CHANNEL}`;
  }
  if (env.LINE_EMULATOR === true) return null;
  if (env.LINE_EMULATOR === false)
    return `LINE_LOGIN_CHANNEL_ID: LINE_EMULATOR=false and no LINE channel configured; ${SET_LINE}`;
  if (!isLoopbackUrl(publicUrl)) {
    return `LINE_LOGIN_CHANNEL_ID: no LINE channel configured and ${publicUrl} is not a loopback address; ${SET_LINE}`;
  }
  if (!isLoopbackHost(env.HOST)) {
    return `LINE_LOGIN_CHANNEL_ID: no LINE channel configured and HOST=${env.HOST} is not a loopback address (other machines reach the app); ${SET_LINE}`;
  }
  return null;
}

/** A listening address on this machine only: 127.0.0.0/8, ::1 or localhost (HOST takes IPv6 without brackets). */
function isLoopbackHost(host: string): boolean {
  return isLoopbackUrl(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`);
}

/**
 * TRUST_PROXY as Fastify's trustProxy option. `true` is one proxy: trusting every hop would let a client choose its
 * own address by sending X-Forwarded-For (and so dodge the login limits). A hop count becomes "trust the n nearest
 * addresses" (the socket's peer, then X-Forwarded-For from the right), as Express does: Fastify 5 reads a bare
 * number as trusting nobody. Either way the app must be reachable only through the proxies.
 */
export function fastifyTrustProxy(value: boolean | number): false | ((address: string, hop: number) => boolean) {
  if (value === false) return false;
  const hops = value === true ? 1 : value;
  return (_address, hop) => hop < hops;
}

/** A URL on this machine only: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  // WHATWG URL normalises IPv4 (127.1 becomes 127.0.0.1) and keeps IPv6 in brackets.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
