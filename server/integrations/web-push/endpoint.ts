/**
 * Which push endpoints the server will send to. The endpoint comes from a browser (a staff member's POST), and the
 * server later sends requests to it: without a check, anyone with a staff login could make the server call
 * internal addresses (SSRF). Push services are public https hosts; plain http is allowed only to this machine's
 * loopback outside production (the local push endpoint of the tests and of development).
 */
const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;
/** IP literals of private, link-local and loopback ranges: never a push service. */
const PRIVATE_IPV4 = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.)/;

export function pushEndpointProblem(endpoint: string, options: { production: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in the URL';
  const loopback = LOOPBACK.test(url.hostname);
  if (url.protocol === 'http:') {
    return loopback && !options.production ? null : 'not https';
  }
  if (url.protocol !== 'https:') return 'not https';
  if (options.production && (loopback || PRIVATE_IPV4.test(url.hostname) || url.hostname.startsWith('['))) {
    return 'not a public host';
  }
  return null;
}
