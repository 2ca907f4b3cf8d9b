import path from 'node:path';
import { z } from 'zod';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());

/** Every environment variable of DESIGN.md §4. All are optional; defaults make `npm start` work as is. */
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
  LINE_AUTH_BASE: z.url().default('https://access.line.me'),
  LINE_API_BASE: z.url().default('https://api.line.me'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('ネイルサロン <no-reply@localhost>'),
  UPLOAD_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Login attempts allowed per IP address and login ID in LOGIN_RATE_WINDOW_SECONDS. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
});

export type Env = z.output<typeof envSchema> & {
  /** True when no LINE channel is configured: the built-in emulator, inbox and dev mailbox are on. */
  lineDevMode: boolean;
  dataDir: string;
  uploadDir: string;
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
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    lineDevMode: !env.LINE_LOGIN_CHANNEL_ID,
    dataDir,
    uploadDir: path.resolve(env.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
  };
}

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
