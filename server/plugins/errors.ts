import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { isDatabaseUnavailable } from '../db/client';
import { isStorageFull } from '../db/storage-full';
import { ApiHttpError } from '../http-errors';

/** Fastify's own 4xx errors, in Japanese. */
const FRAMEWORK_ERRORS: Record<string, { detail: string; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { detail: SERVER_MESSAGES.bodyTooLarge, code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { detail: SERVER_MESSAGES.unsupportedMediaType, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { detail: MESSAGES.invalidInput, code: 'invalid' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { detail: MESSAGES.invalidInput, code: 'invalid' },
  FST_ERR_CTP_INVALID_JSON_BODY: { detail: MESSAGES.invalidInput, code: 'invalid' },
};

/**
 * Every error leaves as `{ detail, code, fields? }` (docs/architecture.md). Bad input is a 400 with per-field
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
        const name =
          issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'non_field_errors';
        (fields[name] ??= []).push(issue.message ?? MESSAGES.invalidInput);
      }
      return reply.code(400).send({ detail: MESSAGES.invalidInput, code: 'invalid', fields });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = (error.code && FRAMEWORK_ERRORS[error.code]) || { detail: MESSAGES.invalidInput, code: 'invalid' };
      return reply.code(status).send(known);
    }
    // A full disk (this instance's or the database's) is not the request's fault, nor a bug: 503 until space is
    // freed, logged as an error because only the operator can free it. GET /api/health/ says the same.
    if (isStorageFull(error)) {
      request.log.error({ err: error }, 'storage full: a write was refused');
      return reply
        .code(503)
        .header('retry-after', '60')
        .send({ detail: SERVER_MESSAGES.storageFull, code: 'storage_full' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ detail: SERVER_MESSAGES.serviceUnavailable, code: 'service_unavailable' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: MESSAGES.serverError, code: 'server_error' });
  });
});

/**
 * Fastify's router refuses some paths before any route or error handler runs, with English bodies of its own:
 * a malformed %-escape (400) and a path parameter over 100 characters. Found by the hostile-input suite; this
 * gives them the app's shape. A parameter that long names nothing that can exist: 404, as for any unknown id.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ detail: MESSAGES.invalidInput, code: 'invalid' });
  return reply.code(500).send({ detail: MESSAGES.serverError, code: 'server_error' });
}

/**
 * Requests Node's HTTP parser rejects (headers over 16 kB, a malformed request line, a client too slow to send
 * its request) never reach Fastify; its default answer is English. Same statuses, the app's body.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', { detail: SERVER_MESSAGES.requestTimeout, code: 'request_timeout' }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', { detail: SERVER_MESSAGES.bodyTooLarge, code: 'headers_too_large' }]
        : [400, 'Bad Request', { detail: MESSAGES.invalidInput, code: 'invalid' }];
  const payload = Buffer.from(JSON.stringify(body));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${payload.length}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n`,
    );
    socket.write(payload);
  }
  socket.destroy(error);
}
