/**
 * What request and error log lines may carry. Logs are kept and read by operators and log services, so they get
 * no personal data and no secrets: query strings carry names, phone numbers and e-mail addresses (the customer
 * search), some paths carry one-time link tokens (/link-customer/{token}, /register-line/{token}) or a calendar
 * feed's secret (/api/calendar/{token}.ics), and a failed database statement's error lists its parameters (drizzle's
 * "Failed query … params: …").
 */
import type { FastifyRequest } from 'fastify';

/** Our link tokens: 16 random bytes, base64url (server/db/link-tokens.ts). UUIDs and ids never match. */
const LINK_TOKEN_SEGMENT = /^[A-Za-z0-9_-]{22}$/;
/** A calendar feed's path ends in its token (`/api/calendar/{token}.ics`, server/features/calendar-feed). */
const FEED_TOKEN_SEGMENT = /^[A-Za-z0-9_-]{22}(?=\.ics$)/;

/** The path with link tokens masked, and the query's parameter names with their values left out. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const path = pathname
    .split('/')
    .map((segment) => (LINK_TOKEN_SEGMENT.test(segment) ? '[token]' : segment.replace(FEED_TOKEN_SEGMENT, '[token]')))
    .join('/');
  if (queryAt === -1) return path;
  const names = [...new URLSearchParams(url.slice(queryAt + 1)).keys()];
  return `${path}?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}`;
}

interface QueryFailure extends Error {
  query: string;
  params: unknown[];
}

const isQueryFailure = (error: unknown): error is QueryFailure =>
  error instanceof Error && typeof (error as Partial<QueryFailure>).query === 'string' && 'params' in error;

/** The database's own error, without its message and detail: both may quote the values that failed. */
function databaseCause(cause: unknown) {
  if (!cause || typeof cause !== 'object') return undefined;
  const { code, severity, constraint, table, column, routine } = cause as Record<string, unknown>;
  return { code, severity, constraint, table, column, routine };
}

export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(error: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
    const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
    if (isQueryFailure(error)) {
      return {
        type: error.name,
        message: `Failed query: ${error.query}`,
        stack: [`${error.name}: Failed query: ${error.query}`, ...frames].join('\n'),
        cause: databaseCause(error.cause),
      };
    }
    const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
    return { type: error.name, message: error.message, stack: error.stack ?? '', code, statusCode };
  },
};
