/**
 * What screens may ask of a failed call. The text always comes from errorDetail (src/lib/api-client.ts): the
 * server's Japanese message, or the screen's fallback for an answer that carries none (a proxy's page, no answer
 * at all). The helpers here only say which failure it was (isApiError(e, 409)) and which fields the server
 * refused, so that screens never read an ApiError's body themselves (eslint.config.js forbids it).
 */
import { ApiError } from './api-client';

/** An ApiError, with this HTTP status when one is given (0: no answer arrived). */
export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The first message of each field the server refused, for a form's inline errors ({} for any other failure). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fieldErrors() : {};
}
