import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../src/shared/messages';
import { ApiHttpError } from '../http-errors';

/** Fastify's own 4xx errors, in Japanese. */
const FRAMEWORK_ERRORS: Record<string, { detail: string; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { detail: MESSAGES.bodyTooLarge, code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { detail: MESSAGES.unsupportedMediaType, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { detail: MESSAGES.invalidInput, code: 'invalid' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { detail: MESSAGES.invalidInput, code: 'invalid' },
  FST_ERR_CTP_INVALID_JSON_BODY: { detail: MESSAGES.invalidInput, code: 'invalid' },
};

/**
 * Every error leaves as `{ detail, code, fields? }` (DESIGN.md §5). Bad input is a 400 with per-field
 * messages; anything unexpected is a 500 with a generic message, logged, and never a stack trace in a body.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiHttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const name = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'non_field_errors';
        (fields[name] ??= []).push(issue.message ?? MESSAGES.invalidInput);
      }
      return reply.code(400).send({ detail: MESSAGES.invalidInput, code: 'invalid', fields });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = (error.code && FRAMEWORK_ERRORS[error.code]) || { detail: MESSAGES.invalidInput, code: 'invalid' };
      return reply.code(status).send(known);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: MESSAGES.serverError, code: 'server_error' });
  });
});
