import { MESSAGES } from '../src/shared/messages';
import { SERVER_MESSAGES } from '../src/shared/server-messages';

/** An error with the docs/architecture.md body: `{ detail, code, fields? }`. Throw it from any handler. */
export class ApiHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly fields?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
    /** More members of the body next to detail and code (e.g. the bookings a refused schedule change would strand). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'ApiHttpError';
  }

  toBody() {
    const body = this.fields
      ? { detail: this.detail, code: this.code, fields: this.fields }
      : { detail: this.detail, code: this.code };
    return this.extra ? { ...body, ...this.extra } : body;
  }
}

export const badRequest = (
  detail: string = MESSAGES.invalidInput,
  fields?: Record<string, string[]>,
  code = 'invalid',
) => new ApiHttpError(400, code, detail, fields);

/** SimpleJWT's answer to any token problem; the browser refreshes once on this code. */
export const tokenNotValid = () => new ApiHttpError(401, 'token_not_valid', MESSAGES.tokenNotValid);
export const notAuthenticated = () => new ApiHttpError(401, 'not_authenticated', SERVER_MESSAGES.notAuthenticated);
export const forbidden = (detail: string = MESSAGES.forbidden, code = 'permission_denied') =>
  new ApiHttpError(403, code, detail);
export const notFound = (detail: string = MESSAGES.notFound) => new ApiHttpError(404, 'not_found', detail);
export const conflict = (detail: string, code = 'conflict') => new ApiHttpError(409, code, detail);
