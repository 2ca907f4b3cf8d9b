import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logSerializers, redactUrl } from './logging';

describe('log redaction', () => {
  it('keeps the path and the parameter names, drops the values and link tokens', () => {
    expect(redactUrl('/api/admin/customers/?name=%E5%B1%B1%E7%94%B0&phone_number=090')).toBe(
      '/api/admin/customers/?name=…&phone_number=…',
    );
    expect(redactUrl('/register-line/Q2xpY2tIZXJlVG9MaW5rMQ')).toBe('/register-line/[token]');
    expect(redactUrl('/api/calendar/Q2xpY2tIZXJlVG9MaW5rMQ.ics')).toBe('/api/calendar/[token].ics');
    // Reservation numbers (UUIDs) and ids stay: they name records, not people, and make a log line useful.
    expect(redactUrl('/api/reservations/3f0e8c9a-1b2c-4d5e-8f90-a1b2c3d4e5f6/')).toBe(
      '/api/reservations/3f0e8c9a-1b2c-4d5e-8f90-a1b2c3d4e5f6/',
    );
    expect(redactUrl('/api/admin/customers/42/')).toBe('/api/admin/customers/42/');
  });

  it('logs a failed statement with its SQL and the database error code, not its parameters or their echo', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "customers_email_key"'), {
      code: '23505',
      severity: 'ERROR',
      constraint: 'customers_email_key',
      table: 'customers',
      detail: 'Key (email)=(hanako@example.com) already exists.',
    });
    const error = new DrizzleQueryError(
      'insert into customers (name, email) values ($1, $2)',
      ['山田 花子', 'hanako@example.com'],
      cause,
    );
    const logged = JSON.stringify(logSerializers.err(error));
    expect(logged).toContain('insert into customers (name, email) values ($1, $2)');
    expect(logged).toContain('23505');
    expect(logged).toContain('customers_email_key');
    expect(logged).not.toContain('山田');
    expect(logged).not.toContain('hanako');
  });

  it('logs other errors as they are', () => {
    const logged = logSerializers.err(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
    });
    expect(logged.stack).toContain('logging.test.ts');
  });
});
