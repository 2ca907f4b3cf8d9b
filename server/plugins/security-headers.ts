import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { LineLoginClient } from '../integrations/line/login-client';

/**
 * Security headers and CSP for every response. Scripts only from this origin; styles may be inline because
 * Mantine sets CSS variables in style attributes; images also from LINE's profile-picture CDN.
 */
export function securityHeadersOptions(line: LineLoginClient): FastifyHelmetOptions {
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
    hsts: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}
