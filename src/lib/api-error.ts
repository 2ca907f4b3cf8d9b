import { MESSAGES } from '../shared/messages';
import type { ApiError as ApiErrorBody } from '../shared/schemas/common';

/** The API's failures as the browser sees them (src/lib/api-client.ts throws them; it re-exports this module). */

/** Every failed call throws this. `status` 0 means no HTTP answer arrived (offline, DNS, CORS). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.detail);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): string {
    return this.body.code;
  }

  get fields(): Record<string, string[]> | undefined {
    return this.body.fields;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /**
   * The server's own Japanese message, else `fallback`. Answers that did not come from this API (a proxy's bare
   * 5xx page: code `http_<status>`) carry no message of ours; a request that got no answer says so.
   */
  detailOr(fallback: string): string {
    return this.code.startsWith('http_') || !this.body.detail ? fallback : this.body.detail;
  }

  /** The first message of each field the server refused, for the form's inline errors. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const [name, messages] of Object.entries(this.fields ?? {})) if (messages[0]) errors[name] = messages[0];
    return errors;
  }
}

/** `error.detailOr(fallback)` for any thrown value (a non-ApiError gets the fallback). */
export function errorDetail(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.detailOr(fallback) : fallback;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.detail === 'string' && typeof candidate.code === 'string';
}

export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export function errorBodyFor(status: number, data: unknown): ApiErrorBody {
  if (isApiErrorBody(data)) return data;
  // Proxies and crashed upstreams answer without our error shape; still give the UI a Japanese sentence.
  return { detail: status >= 500 ? MESSAGES.serverError : MESSAGES.invalidInput, code: `http_${status}` };
}
