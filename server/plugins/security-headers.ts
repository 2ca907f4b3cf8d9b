import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { LineLoginClient } from '../integrations/line/login-client';

/** A year, the least HSTS preload lists and scanners accept. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Security headers and CSP for every response. Scripts only from this origin; styles may be inline because
 * Mantine sets CSS variables in style attributes; images also from LINE's profile-picture CDN. With an https
 * PUBLIC_URL, Strict-Transport-Security keeps browsers on https (a first plain-http visit cannot then be turned
 * into a downgrade later); on an http PUBLIC_URL (a developer's machine) it would lock that host name out of http.
 */
function securityHeadersOptions(line: LineLoginClient, publicUrl: string): HelmetOptions {
  const lineOrigin = line.mode === 'live' ? new URL(line.authorizeUrl).origin : null;
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://profile.line-scdn.net', 'https://obs.line-scdn.net'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: lineOrigin ? ["'self'", lineOrigin] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // LINE's login page opens in the same tab and comes back; a strict opener policy is fine.
    crossOriginEmbedderPolicy: false,
    hsts: publicUrl.startsWith('https:') ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers helmet sets with these options. They are the same for every response (no nonces), so helmet runs
 * once, at start, against a response that only records them. @fastify/helmet built the whole helmet middleware
 * again for every request, which cost a cached booking read more than its own work (docs/BENCHMARKS.md).
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Sets the security headers on every response, errors and 404s included. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { line: LineLoginClient; publicUrl: string }) => {
    const headers = securityHeaders(securityHeadersOptions(options.line, options.publicUrl));
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
);
