import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '../../src/shared/messages';
import { badRequest, notFound } from '../http-errors';

/**
 * PostgreSQL text cannot hold U+0000: a NUL byte anywhere in a string that reaches a query (a login ID, a
 * name, a search term, a reservation number in the path) made the statement fail, and the request a 500.
 * Found by the hostile-input suite. No legitimate input contains one, so a parsed body or query string with
 * one is refused with 400, and a path parameter with one is a 404, before validation and handlers run.
 * (Multipart fields are read by their handlers, after this hook: message-form.ts checks its text itself.)
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    // A path parameter names an object (a reservation number, a media name): with a NUL it names none.
    if (containsNul(request.params)) throw notFound();
    if (containsNul(request.query) || containsNul(request.body)) throw badRequest(MESSAGES.invalidInput);
  });
});

/** Iterative: a body may nest arrays hundreds of thousands deep, which recursion would not survive. */
function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (current && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
