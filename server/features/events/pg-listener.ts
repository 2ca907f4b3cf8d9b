/**
 * The one LISTEN connection per process that hears the other instances' live updates (pg-event-bus.ts): it
 * connects, reconnects with backoff after it is lost, and pings so that a connection dropped silently is noticed.
 * The bus decides what a payload means; this module only keeps the connection.
 */
import pg from 'pg';

export const LISTENER_APPLICATION_NAME = 'salon-live-updates';

export interface ListenerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface ListenerOptions {
  connectionString: string;
  channel: string;
  logger: ListenerLogger;
  /** Every payload heard on the channel (the bus's own included: the envelope says whose it is). */
  onPayload(payload: string | undefined): void;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  pingIntervalMs: number;
}

/** The connection's state: at most one current client, and the timers that keep it. */
interface Listener {
  options: ListenerOptions;
  current: pg.Client | null;
  closed: boolean;
  failures: number;
  reconnectTimer: NodeJS.Timeout | null;
  pingTimer: NodeJS.Timeout | null;
}

export function createListener(options: ListenerOptions): Listener {
  return { options, current: null, closed: false, failures: 0, reconnectTimer: null, pingTimer: null };
}

/** Connects and starts pinging; a first connection that fails keeps retrying in the background. */
export async function startListening(listener: Listener): Promise<void> {
  if (listener.closed || listener.current) return;
  try {
    await connect(listener);
  } catch (error) {
    // The app still serves; this instance hears the others once the database lets the listener in.
    listener.options.logger.warn({ err: (error as Error).message }, 'event listener could not connect; retrying');
    scheduleReconnect(listener);
  }
  startPinging(listener);
}

export async function stopListening(listener: Listener): Promise<void> {
  listener.closed = true;
  if (listener.reconnectTimer) clearTimeout(listener.reconnectTimer);
  if (listener.pingTimer) clearInterval(listener.pingTimer);
  listener.reconnectTimer = null;
  listener.pingTimer = null;
  const client = listener.current;
  listener.current = null;
  await client?.end().catch(() => {});
}

/** One attempt: connect, LISTEN, and only then become the current listener. */
async function connect(listener: Listener): Promise<void> {
  const { connectionString, channel, logger, onPayload } = listener.options;
  const client = new pg.Client({
    connectionString,
    keepAlive: true,
    // Shows in pg_stat_activity, so that an operator can tell these long-lived connections apart.
    application_name: LISTENER_APPLICATION_NAME,
  });
  let dead = false;
  const lost = (error?: unknown) => {
    if (dead) return;
    dead = true;
    if (client !== listener.current) return;
    listener.current = null;
    logger.warn(
      { err: error instanceof Error ? error.message : undefined },
      'event listener connection lost; reconnecting',
    );
    client.end().catch(() => {});
    scheduleReconnect(listener);
  };
  // Without an 'error' listener a lost connection would crash the process.
  client.on('error', lost);
  client.on('end', () => lost());
  client.on('notification', (message) => {
    if (message.channel === channel) onPayload(message.payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    if (dead || listener.closed) throw new Error('closed while connecting');
  } catch (error) {
    dead = true;
    client.end().catch(() => {});
    throw error;
  }
  listener.current = client;
  listener.failures = 0;
}

function scheduleReconnect(listener: Listener) {
  if (listener.closed || listener.reconnectTimer) return;
  const { reconnectMinMs, reconnectMaxMs, logger } = listener.options;
  // Jitter keeps a fleet of instances from reconnecting in lockstep after a database restart.
  const delay = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** listener.failures) * (1 + Math.random() * 0.2);
  listener.failures += 1;
  listener.reconnectTimer = setTimeout(() => {
    listener.reconnectTimer = null;
    connect(listener).then(
      () => logger.info({}, 'event listener connected'),
      (error: unknown) => {
        if (!listener.closed) {
          logger.warn(
            { err: (error as Error).message, attempt: listener.failures },
            'event listener could not reconnect',
          );
        }
        scheduleReconnect(listener);
      },
    );
  }, delay);
  listener.reconnectTimer.unref();
}

/** A ping that fails or takes over 5 s ends the connection like any loss: the reconnect follows. */
function startPinging(listener: Listener) {
  listener.pingTimer = setInterval(() => {
    const client = listener.current;
    if (!client) return;
    const timeout = setTimeout(() => client.emit('error', new Error('event listener ping timed out')), 5_000);
    timeout.unref();
    client.query('select 1').then(
      () => clearTimeout(timeout),
      (error: unknown) => {
        clearTimeout(timeout);
        client.emit('error', error);
      },
    );
  }, listener.options.pingIntervalMs);
  listener.pingTimer.unref();
}
