/**
 * Live updates across instances (docs/architecture.md#operating-contract: several stateless Node instances on one PostgreSQL). Each
 * instance delivers its own events to its own streams at once, exactly like the in-process bus, and also sends
 * them with pg_notify; one dedicated connection per process (pg-listener.ts) LISTENs and hands other instances'
 * events to the local streams. PGlite is one process by construction and keeps the in-process bus.
 *
 * Delivery is best effort, like the in-process bus: an event raised while this instance's LISTEN connection is
 * down (a database restart or failover) is not replayed. The staff app refetches when its stream reconnects, so
 * a gap costs freshness for a few seconds, never correctness.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { reservationChangeEventSchema, type ReservationChangeEvent } from '#src/shared/schemas/events';
import type { DatabaseHandle } from '../../db/client';
import { createInProcessEventBus, type EventBus } from './event-bus';
import { coalescedWrites } from '../../coalesced-writes';
import { createListener, startListening, stopListening, type ListenerLogger } from './pg-listener';

/** The NOTIFY channel. One database serves one deployment, so one fixed name is enough. */
export const EVENT_CHANNEL = 'salon_reservation_events';

export { LISTENER_APPLICATION_NAME } from './pg-listener';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;

type EventBusLogger = ListenerLogger;

interface PgEventBusOptions {
  /** For the LISTEN connection (the pool's connections come and go; a listener must stay). */
  connectionString: string;
  /**
   * Sends NOTIFYs on the channel, in order, in one statement through the app's pool: publishing needs no connection
   * of its own. Events published while one is being sent go together in the next (server/coalesced-writes.ts);
   * PostgreSQL delivers two identical payloads of one statement once, which for a live update changes nothing.
   */
  notify(channel: string, payloads: readonly string[]): Promise<unknown>;
  channel?: string;
  logger?: EventBusLogger;
  onListenerError?: (error: unknown) => void;
  /** Reconnect backoff after the LISTEN connection is lost: from min, doubling, capped at max. Defaults 200 ms, 5 s. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /**
   * A LISTEN connection can die silently (a NAT or proxy dropping it without a reset); a ping this often
   * notices within one interval plus its timeout. Default 15 s.
   */
  pingIntervalMs?: number;
}

/** An event bus with a lifecycle: buildApp starts it when the app is ready and closes it with the app. */
export interface ManagedEventBus extends EventBus {
  start(): Promise<void>;
  close(): Promise<void>;
  /** True while this instance hears the other instances (always true for the in-process bus). */
  readonly listening: boolean;
}

interface Envelope {
  /** The publishing instance: it has already delivered the event to its own streams. */
  origin: string;
  event: ReservationChangeEvent;
}

const silentLogger: EventBusLogger = { info() {}, warn() {} };

function createPgEventBus(options: PgEventBusOptions): ManagedEventBus {
  const channel = options.channel ?? EVENT_CHANNEL;
  const logger = options.logger ?? silentLogger;
  const origin = randomUUID();
  const local = createInProcessEventBus({ onListenerError: options.onListenerError });
  const listener = createListener({
    connectionString: options.connectionString,
    channel,
    logger,
    onPayload: (payload) => receive(local, origin, payload),
    reconnectMinMs: options.reconnectMinMs ?? 200,
    reconnectMaxMs: options.reconnectMaxMs ?? 5_000,
    pingIntervalMs: options.pingIntervalMs ?? 15_000,
  });
  const sendNotify = coalescedWrites(async (payloads: string[]) => {
    await options.notify(channel, payloads);
  });

  return {
    publish(event) {
      local.publish(event);
      sendNotify(envelopeOf(origin, event)).catch((error: unknown) => {
        // The change itself committed; only the other instances' live view misses it (see the header).
        logger.warn({ err: (error as Error).message }, 'could not send a live update to the other instances');
      });
    },
    subscribe: local.subscribe,
    size: local.size,
    start: () => startListening(listener),
    close: () => stopListening(listener),
    get listening() {
      return listener.current !== null;
    },
  };
}

/** The NOTIFY payload of an event: who sent it, and the event, cut to fit PostgreSQL's limit. */
function envelopeOf(origin: string, event: ReservationChangeEvent): string {
  const payload = JSON.stringify({ origin, event } satisfies Envelope);
  if (Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES) return payload;
  // Only a free-text name can be this long; the other instances still hear that something changed.
  return JSON.stringify({
    origin,
    event: { ...event, customer_name: event.customer_name.slice(0, 100) },
  } satisfies Envelope);
}

/** Hands another instance's event to this instance's streams; its own echo and anything malformed are dropped. */
function receive(local: EventBus, origin: string, payload: string | undefined) {
  let envelope: Partial<Envelope> | null;
  try {
    envelope = JSON.parse(payload ?? '') as Partial<Envelope> | null;
  } catch {
    return;
  }
  // A throw here would escape the connection's event handler and end the process.
  if (typeof envelope !== 'object' || envelope === null || envelope.origin === origin) return;
  // Anyone who can reach the database can NOTIFY this channel: only well-formed events reach the streams.
  const parsed = reservationChangeEventSchema.safeParse(envelope.event);
  if (parsed.success) local.publish(parsed.data);
}

/**
 * The bus buildApp uses: LISTEN/NOTIFY on PostgreSQL (several instances may share the database), the
 * in-process bus on PGlite (one process owns the database).
 */
export function createEventBusFor(
  database: Pick<DatabaseHandle, 'engine' | 'db' | 'connectionString'>,
  options: { logger?: EventBusLogger; onListenerError?: (error: unknown) => void } = {},
): ManagedEventBus {
  if (database.engine === 'postgres' && database.connectionString) {
    return createPgEventBus({
      connectionString: database.connectionString,
      notify: (channel, payloads) =>
        database.db.execute(
          sql`select ${sql.join(
            payloads.map((payload) => sql`pg_notify(${channel}, ${payload})`),
            sql`, `,
          )}`,
        ),
      logger: options.logger,
      onListenerError: options.onListenerError,
    });
  }
  const bus = createInProcessEventBus({ onListenerError: options.onListenerError });
  return { ...bus, start: async () => {}, close: async () => {}, listening: true };
}
