import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Database, Transaction } from '../../db/client';
import type { LineBotApi, LineProfile, LineWebhookEvent } from '../../integrations/line/webhook';
import { MAX_IMAGE_BYTES, type MediaStore, type StoredMedia } from '../../integrations/storage/media-store';
import * as repo from './line-webhook.repository';

interface WebhookLogger {
  warn(obj: object, msg: string): void;
}

/** What one event does once its slow part (LINE calls, image decoding) is done: run inside its transaction. */
interface PreparedEvent {
  event: LineWebhookEvent;
  effect: (tx: Transaction) => Promise<void>;
  /** A file stored for the event, removed again if the event turns out to be a repeat. */
  media?: StoredMedia;
  /** Runs after the event's transaction committed (never for a repeat): the reply to a 予約確認 message. */
  afterCommit?: () => Promise<void>;
}

/** The chat message a customer sends to see their next reservation (the rich menu can send it too). */
const RESERVATION_CHECK_TEXT = '予約確認';

/** Answers a customer's 予約確認 message with their next reservation, by the event's reply token. */
export type ReservationCheckReplier = (input: {
  customerId: number;
  lineUserId: string;
  replyToken: string;
}) => Promise<void>;

/**
 * Incoming LINE events (docs/architecture.md): text and image messages become the customer's messages, follow
 * creates or refreshes the customer, everything else is only marked seen. Each event is stored once.
 */
export function createLineWebhookService(deps: {
  db: Database;
  salonId: number;
  /** Null without a Messaging API token: no profiles, no image content. */
  lineApi: LineBotApi | null;
  /** Dev mode: profiles come from the emulator's test users when LINE cannot be asked. */
  devProfiles: boolean;
  media: MediaStore;
  now: () => Date;
  logger: WebhookLogger;
  /** Absent: 予約確認 is stored like any other message and not answered. */
  replyReservationCheck?: ReservationCheckReplier;
}) {
  const { db, salonId } = deps;

  async function profileOf(userId: string): Promise<LineProfile | null> {
    if (deps.lineApi) return deps.lineApi.getProfile(userId);
    return deps.devProfiles ? repo.findDevLineProfile(db, userId) : null;
  }

  /** The stored image, or null: a failed fetch or a refused file must not fail the delivery. */
  async function fetchImage(event: LineWebhookEvent, messageId: string): Promise<StoredMedia | null> {
    if (!deps.lineApi) return null;
    // Images LINE does not host (sent through another provider) cannot be fetched from the content API.
    if (event.message?.contentProvider && event.message.contentProvider.type !== 'line') return null;
    try {
      const bytes = await deps.lineApi.getMessageContent(messageId, MAX_IMAGE_BYTES);
      return await deps.media.saveImage(bytes);
    } catch (error) {
      deps.logger.warn({ err: error, messageId }, 'LINE image could not be stored');
      return null;
    }
  }

  /** Everything slow happens here, outside any transaction. */
  async function prepare(
    event: LineWebhookEvent,
    profiles: Map<string, Promise<LineProfile | null>>,
  ): Promise<PreparedEvent | null> {
    if (await repo.isEventSeen(db, event.webhookEventId)) return null;
    const userId = event.source?.type === 'user' ? event.source.userId : undefined;
    const cachedProfile = (id: string) => {
      if (!profiles.has(id)) profiles.set(id, profileOf(id));
      return profiles.get(id)!;
    };
    const message = event.message;

    if (userId && event.type === 'message' && message && (message.type === 'text' || message.type === 'image')) {
      const known = (await repo.findCustomerIdByLineUser(db, salonId, userId)) !== null;
      const [profile, media] = await Promise.all([
        known ? null : cachedProfile(userId),
        message.type === 'image' ? fetchImage(event, message.id) : null,
      ]);
      const text = message.type === 'text' ? message.text! : media ? '' : SERVER_MESSAGES.lineImageNotReceived;
      const replyToken = event.replyToken;
      const reply = deps.replyReservationCheck;
      const asksForReservation =
        message.type === 'text' && text.trim() === RESERVATION_CHECK_TEXT && Boolean(replyToken) && Boolean(reply);
      let storedCustomerId: number | null = null;
      return {
        event,
        media: media ?? undefined,
        afterCommit: asksForReservation
          ? async () => {
              if (storedCustomerId === null) return;
              await reply!({ customerId: storedCustomerId, lineUserId: userId, replyToken: replyToken! });
            }
          : undefined,
        effect: async (tx) => {
          const customerId = await repo.ensureLineCustomer(tx, {
            salonId,
            lineUserId: userId,
            profile,
            refresh: false,
          });
          await repo.insertCustomerMessage(tx, {
            salonId,
            customerId,
            message: text,
            imageUrl: media?.url ?? '',
            lineMessageId: message.id,
            sentAt: new Date(event.timestamp),
          });
          storedCustomerId = customerId;
        },
      };
    }
    if (userId && event.type === 'follow') {
      const profile = await cachedProfile(userId);
      return {
        event,
        effect: async (tx) => {
          await repo.ensureLineCustomer(tx, { salonId, lineUserId: userId, profile, refresh: true });
        },
      };
    }
    // unfollow, other message types, group and room events, ...: seen, nothing else.
    return { event, effect: async () => {} };
  }

  return {
    /** Processes a delivery's events in order, each in its own transaction; repeats change nothing. */
    async handleDelivery(events: LineWebhookEvent[]): Promise<void> {
      const profiles = new Map<string, Promise<LineProfile | null>>();
      const settled = await Promise.allSettled(events.map((event) => prepare(event, profiles)));
      const prepared = settled.flatMap((result) =>
        result.status === 'fulfilled' && result.value ? [result.value] : [],
      );
      // Files stored for events that end up not recorded (repeats, or a failure before their turn) are removed.
      const unrecorded = new Set(prepared);
      try {
        const failed = settled.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        for (const item of prepared) {
          const { event } = item;
          const stored = await repo.recordEventOnce(
            db,
            { id: event.webhookEventId, type: event.type, receivedAt: deps.now() },
            item.effect,
          );
          if (stored) unrecorded.delete(item);
          // A failed reply must not fail the delivery: the event is stored, and LINE would only redeliver it.
          if (stored && item.afterCommit) {
            await item.afterCommit().catch((error: unknown) => {
              deps.logger.warn({ err: error, eventId: event.webhookEventId }, 'LINE reply not sent');
            });
          }
        }
      } finally {
        await Promise.all([...unrecorded].map((item) => (item.media ? deps.media.remove(item.media.name) : undefined)));
      }
    },
  };
}
