import { ApiError } from '../../../lib/api-client';

/**
 * "The server's error field, else <fallback>" (SPEC.md §8): the Japanese `detail` of an answer in the API's
 * error shape, or of a request that never got an answer. Proxies' bare 5xx pages have no such field.
 */
export function serverDetail(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code.startsWith('http_')) return undefined;
  return error.body.detail || undefined;
}

export function errorText(error: unknown, fallback: string): string {
  return serverDetail(error) ?? fallback;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
