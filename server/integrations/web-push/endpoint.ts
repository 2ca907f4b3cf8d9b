/**
 * Which push endpoints the server will send to. The endpoint comes from a browser (a staff member's POST), and the
 * server later sends requests to it: without a check, anyone with a staff login could make the server call
 * internal addresses (SSRF). A refused-IP list cannot be complete (`localhost.`, a name that resolves to 127.0.0.1,
 * `metadata.google.internal`), so only the push services browsers actually use are accepted, by host name, over
 * https on the default port. More hosts (a browser's new push service) can be added with WEB_PUSH_HOSTS
 * (docs/OPERATIONS.md). Plain http to this machine's loopback literal is allowed outside production only: the
 * local push service of the tests and of development (tests/helpers/fake-push-service.ts).
 */

/** Host names and `*.` suffixes of the push services of Chrome/Android (FCM), Firefox, Safari and Edge. */
const PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** A host pattern: a lower-case host name, or `*.` and a domain for any of its sub-domains. */
const HOST_PATTERN = /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/** WEB_PUSH_HOSTS (comma-separated host patterns) as a list; the reason for an entry that is not one. */
export function parsePushHosts(value: string | undefined): { hosts: string[]; problem: string | null } {
  const hosts = (value ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const bad = hosts.find((host) => !HOST_PATTERN.test(host));
  return { hosts, problem: bad === undefined ? null : `"${bad}" is not a host name or *.domain` };
}

function matchesHost(hostname: string, pattern: string): boolean {
  return pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;
}

export interface PushEndpointPolicy {
  production: boolean;
  /** Hosts accepted besides PUSH_SERVICE_HOSTS (WEB_PUSH_HOSTS). */
  extraHosts?: readonly string[];
}

export function pushEndpointProblem(endpoint: string, policy: PushEndpointPolicy): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in the URL';
  if (url.protocol === 'http:') {
    return LOOPBACK.test(url.hostname) && !policy.production ? null : 'not https';
  }
  if (url.protocol !== 'https:') return 'not https';
  const known = [...PUSH_SERVICE_HOSTS, ...(policy.extraHosts ?? [])];
  if (!known.some((pattern) => matchesHost(url.hostname, pattern))) return 'not a known push service';
  // A push service listens on 443; another port of a push service's name is not one.
  return url.port === '' ? null : 'not the https port';
}
