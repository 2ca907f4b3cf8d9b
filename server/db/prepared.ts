/**
 * Named prepared statements for the hot paths (a booking, availability, the admin day list, the customer search):
 * docs/decisions/0022-booking-in-one-statement.md.
 *
 * A query is built by Drizzle once per database handle (building the SQL string was ~15% of a booking's server CPU)
 * and runs by name with its placeholders filled. On PostgreSQL, node-postgres parses a named statement once per
 * connection and then only binds and executes it, so the server no longer parses and plans the same text at every
 * request (PostgreSQL switches to a generic plan after five executions when it is no worse). PGlite's driver
 * ignores the name (Drizzle's PGlite session sends the text each time), so there only the building is saved.
 * Behind PgBouncer in transaction mode, named statements need PgBouncer 1.21 or later with
 * `max_prepared_statements` set (docs/OPERATIONS.md).
 */
import type { Executor } from './client';

const built = new WeakMap<Executor, Map<string, unknown>>();

/**
 * The statement `name` prepared on `db` by `build`, built on the first call for this handle. `build` must give the
 * same text every time (values only through `sql.placeholder`): node-postgres refuses a name reused for other text.
 */
export function preparedOn<T>(db: Executor, name: string, build: (db: Executor) => T): T {
  let statements = built.get(db);
  if (!statements) {
    statements = new Map();
    built.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    statements.set(name, statement);
  }
  return statement;
}
