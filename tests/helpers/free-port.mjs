// A port nobody listens on now, for a server, a fake peer or a PostgreSQL cluster a test or benchmark starts.
// JavaScript (typed by free-port.d.mts) so that scripts/lib/postgres.mjs, which plain Node runs for npm test, can
// share it with the TypeScript helpers and the benchmarks.
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    // Never what keeps a process alive.
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
