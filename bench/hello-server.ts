/**
 * The physical limit of the stack on this machine: Fastify 5 with no plugins, no database and no logging,
 * answering one small JSON object. `npm run bench` starts it as a child process and loads it like the API.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
