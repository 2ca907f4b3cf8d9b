import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The Fastify instance with zod schemas typing every request and response. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A JSON body encoded once with a route's response schema: a cached answer sent again as it is. */
export interface EncodedJson {
  readonly json: string;
}

/**
 * Encodes `value` the way the route's serializer would (fastify-type-provider-zod: the schema's encode, then
 * JSON.stringify), for an answer kept in the read cache: encoding a day's list is a tenth of the request's CPU, and
 * many requests share one cached list (server/features/reservations/reservations.admin-routes.ts).
 */
export function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): EncodedJson {
  return { json: JSON.stringify(z.encode(schema, value)) };
}

/** Sends an encoded body: a string with a JSON content type is not serialized again (Fastify's reply.send). */
export function sendEncoded(reply: FastifyReply, body: EncodedJson): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body.json);
}
