/**
 * The process: environment, database, first-start data, HTTP server, graceful shutdown.
 * Everything HTTP lives in app.ts, which tests build directly.
 */
import path from 'node:path';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { ensureInitialData } from './db/seed';
import { EnvError, loadEnv } from './env';
import { loadOrCreateSecret } from './secrets';

async function main() {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'db') });
  await database.migrate();
  const say = (line: string) => console.log(line);
  // Instances starting together on an empty PostgreSQL take turns, or both would create the superuser.
  await database.withStartupLock(() =>
    ensureInitialData({
      db: database.db,
      dataDir: env.dataDir,
      timeZone: env.SALON_TZ,
      adminUsername: env.ADMIN_USERNAME,
      adminPassword: env.ADMIN_PASSWORD,
      demoData: env.DEMO_DATA,
      log: say,
    }),
  );

  const jwtSecret = env.JWT_SECRET ?? loadOrCreateSecret(env.dataDir, 'jwt-secret');
  const app = await buildApp({ env, database, jwtSecret, logger: { level: env.LOG_LEVEL } });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ host: env.HOST, port: env.PORT });
  say(`Salon reservations is running at ${address} (database: ${database.engine}${env.lineDevMode ? ', LINE emulator at /dev/line' : ''})`);
  say(`Customer login: ${address}/login   Staff: ${address}/admin (login ID "${env.ADMIN_USERNAME}")`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
