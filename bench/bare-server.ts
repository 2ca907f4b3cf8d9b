/**
 * The limit of the stack with its database: Fastify 5 with no auth, no validation and no logger, on the benchmark's
 * database (DATABASE_URL, a pool of 10 as the app's; or PGlite in BARE_PGLITE_DIR, which only one process may
 * open at a time), answering the app's booking, customer search and staff day list with one SQL statement each
 * (bench/lib/bare-sql.ts). `npm run bench` starts it as a child process and loads it like the app's endpoints.
 */
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Fastify from 'fastify';
import pg from 'pg';
import { BARE_BOOKING, BARE_CUSTOMER_SEARCH, BARE_DAY_LIST } from './lib/bare-sql';

type Query = (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const env = process.env;
const salonId = Number(env.SALON_ID);
const timeZone = env.SALON_TZ ?? 'Asia/Tokyo';
let query: Query;
let closeDatabase: () => Promise<void>;
if (env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
  query = (text, params) => pool.query(text, params);
  closeDatabase = () => pool.end();
} else {
  const client = await PGlite.create(env.BARE_PGLITE_DIR!, { extensions: { btree_gist, pg_trgm } });
  query = (text, params) => client.query(text, params);
  closeDatabase = () => client.close();
}

const app = Fastify({ logger: false });
const sendJson = (reply: { type(t: string): { send(b: unknown): unknown } }, body: unknown) =>
  reply.type('application/json; charset=utf-8').send(body);

/** What the benchmark's settle step asks for between runs (as it asks the app). */
app.get('/api/config/', async () => ({}));

app.post('/api/reservations/', async (request, reply) => {
  const body = request.body as Record<string, string | number>;
  const params = [
    salonId,
    body.service,
    body.start_time,
    timeZone,
    body.customer,
    body.customer_name,
    body.customer_furigana,
    body.customer_email,
    body.customer_phone,
  ];
  // As the app: a booking that loses the race for a staff member's time tries the next free one, four times.
  for (let attempt = 0; attempt < 4; attempt += 1) {
    try {
      const { rows } = await query(BARE_BOOKING, params);
      if (rows.length === 0) break;
      return sendJson(reply.code(201), rows[0]!.body);
    } catch (error) {
      if ((error as { code?: string }).code !== '23P01') throw error;
    }
  }
  return sendJson(reply.code(409), '{"code":"slot_unavailable"}');
});

app.get('/api/admin/reservations/', async (request, reply) => {
  const q = request.query as Record<string, string | undefined>;
  const params = [salonId, q.start_date, q.end_date, timeZone, Number(q.limit ?? 500), Number(q.offset ?? 0)];
  const row = (await query(BARE_DAY_LIST, params)).rows[0]!;
  return sendJson(reply.header('X-Total-Count', String(row.total)), row.body);
});

app.get('/api/admin/customers/', async (request, reply) => {
  const q = request.query as Record<string, string | undefined>;
  const params = [salonId, (q.name ?? '').trim(), Number(q.limit ?? 100), Number(q.offset ?? 0)];
  const row = (await query(BARE_CUSTOMER_SEARCH, params)).rows[0]!;
  return sendJson(reply.header('X-Total-Count', String(row.total)), row.body);
});

await app.listen({ host: env.HOST ?? '127.0.0.1', port: Number(env.PORT ?? 3000) });
// PGlite must be closed before the app's server opens the same folder.
const stop = () =>
  void app
    .close()
    .then(closeDatabase)
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
