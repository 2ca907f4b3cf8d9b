/**
 * Staff messages to customers over LINE (docs/screens.md#message-history, docs/architecture.md): one customer (send-message), every linked
 * customer in the sender's scope (bulk send, multicast in batches of 500), and the history of both.
 * Every send is stored and queued in the outbox in one transaction; the worker delivers it.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { BulkSendResponse, LineHistoryQuery, LineMessageItem } from '#src/shared/schemas/messages';
import { addDaysToDate, instantToZonedIso, localDateTimeToInstant } from '#src/shared/time';
import type { Database } from '../../db/client';
import { customerScopeFor, findCustomerForStaff, ownBookingsOnly } from '../../db/scope';
import { ApiHttpError, badRequest, notFound } from '../../http-errors';
import { MULTICAST_MAX_RECIPIENTS, type LineMessage } from '../../integrations/line/messaging';
import { MediaRejectedError, type MediaStore, type StoredMedia } from '../../integrations/storage/media-store';
import { enqueueNotification, enqueueNotifications } from '../../outbox/outbox';
import type { StaffPrincipal } from '../../plugins/auth';
import type { MessageForm } from './message-form';
import * as repo from './messages.repository';

interface MessagesServiceDeps {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  media: MediaStore;
  /** Called after a commit that queued messages (the outbox worker's wake()). */
  afterQueue: () => void;
}

type Recipient = NonNullable<Awaited<ReturnType<typeof findCustomerForStaff>>> & { line_user_id: string };

type BulkSendResult = { status: 200 | 201; body: BulkSendResponse };

/** Thrown inside the bulk-send transaction to roll it back when nobody is left to send to. */
class NoRecipients extends Error {}

/** The service routes call (messages.routes.ts): each use case below with the deps already given. */
export function createMessagesService(deps: MessagesServiceDeps) {
  return {
    recipientFor: (staff: StaffPrincipal, customerId: number) => recipientFor(deps, staff, customerId),
    sendToCustomer: (staff: StaffPrincipal, customer: Recipient, form: MessageForm) =>
      sendToCustomer(deps, staff, customer, form),
    sendBulk: (staff: StaffPrincipal, form: MessageForm) => sendBulk(deps, staff, form),
    history: (staff: StaffPrincipal, query: LineHistoryQuery) => history(deps, staff, query),
  };
}

/** Stores the image (before any transaction: the file system is not part of it). */
async function storeImage(deps: MessagesServiceDeps, image: Buffer | null): Promise<StoredMedia | null> {
  if (!image) return null;
  try {
    return await deps.media.saveImage(image);
  } catch (error) {
    if (!(error instanceof MediaRejectedError)) throw error;
    const code = error.status === 413 ? 'file_too_large' : error.status === 415 ? 'unsupported_media_type' : 'invalid';
    throw new ApiHttpError(error.status, code, error.detail, { image: [error.detail] });
  }
}

/** Runs `write` with the stored image; if it fails, the image it would have referred to goes too. */
async function withImage<T>(
  deps: MessagesServiceDeps,
  stored: StoredMedia | null,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (stored) await deps.media.remove(stored.name).catch(() => {});
    throw error;
  }
}

/** The customer a staff member may message: out of scope is 404, not linked to LINE is 400. */
async function recipientFor(deps: MessagesServiceDeps, staff: StaffPrincipal, customerId: number): Promise<Recipient> {
  const customer = await findCustomerForStaff(deps.db, deps.salonId, customerId, staff);
  if (!customer) throw notFound(MESSAGES.customerNotFound);
  const lineUserId = customer.line_user_id;
  if (!lineUserId) throw badRequest(MESSAGES.customerNotLineLinked, undefined, 'not_line_linked');
  return { ...customer, line_user_id: lineUserId };
}

async function sendToCustomer(
  deps: MessagesServiceDeps,
  staff: StaffPrincipal,
  customer: Recipient,
  form: MessageForm,
): Promise<LineMessageItem> {
  const { db, salonId, now } = deps;
  const lineUserId = customer.line_user_id;
  const stored = await storeImage(deps, form.image);
  const row = await withImage(deps, stored, () =>
    db.transaction(async (tx) => {
      const inserted = await repo.insertDirectMessage(tx, {
        salon_id: salonId,
        customer_id: customer.id,
        sender_type: 'admin',
        staff_id: staff.id,
        message: form.text,
        image_url: stored?.url ?? '',
        sent_at: now(),
      });
      await enqueueNotification(tx, {
        salonId,
        channel: 'line',
        kind: 'staff_message',
        recipient: lineUserId,
        payload: { messages: lineMessagesFor(form.text, stored) },
      });
      return inserted;
    }),
  );
  deps.afterQueue();
  return present(deps, {
    source: 'm',
    id: row.id,
    sent_at: row.sent_at,
    sender_type: 'admin',
    customer_id: customer.id,
    customer_name: customer.name,
    customer_line_picture_url: customer.line_picture_url,
    message: row.message,
    image_url: row.image_url,
    recipient_count: null,
  });
}

async function sendBulk(deps: MessagesServiceDeps, staff: StaffPrincipal, form: MessageForm): Promise<BulkSendResult> {
  const { db, salonId, now } = deps;
  const scope = customerScopeFor(staff);
  const empty: BulkSendResult = { status: 200, body: { broadcast_id: null, queued: 0, batches: 0 } };
  // Checked first so that a send to nobody stores no image; the transaction decides for real.
  if ((await repo.countLinkedCustomers(db, salonId, scope)) === 0) return empty;
  const stored = await storeImage(deps, form.image);
  const messages = lineMessagesFor(form.text, stored);
  try {
    const body = await withImage(deps, stored, () =>
      db.transaction(async (tx) => {
        const broadcastId = await repo.insertBroadcast(tx, {
          salon_id: salonId,
          staff_id: staff.id,
          message: form.text,
          image_url: stored?.url ?? '',
          created_at: now(),
        });
        const lineUserIds = await repo.insertBroadcastRecipients(tx, { broadcastId, salonId, scope });
        if (lineUserIds.length === 0) throw new NoRecipients();
        await repo.setRecipientCount(tx, broadcastId, lineUserIds.length);
        const batches = chunk(lineUserIds, MULTICAST_MAX_RECIPIENTS);
        // One row (so one retry key, one multicast request) per batch: a retried batch is never re-sent
        // to the customers of another.
        await enqueueNotifications(
          tx,
          batches.map((to, index) => ({
            salonId,
            channel: 'line' as const,
            kind: 'bulk_message',
            recipient: `broadcast:${broadcastId}:${index + 1}`,
            payload: { to, messages },
          })),
        );
        return { broadcast_id: broadcastId, queued: lineUserIds.length, batches: batches.length };
      }),
    );
    deps.afterQueue();
    return { status: 201, body };
  } catch (error) {
    if (error instanceof NoRecipients) return empty;
    throw error;
  }
}

async function history(
  deps: MessagesServiceDeps,
  staff: StaffPrincipal,
  query: LineHistoryQuery,
): Promise<{ items: LineMessageItem[]; total: number }> {
  const { db, salonId, timeZone } = deps;
  // An ordinary staff member's user_id is ignored: they always see their own (docs/architecture.md).
  const staffId = ownBookingsOnly(staff) ?? query.user_id;
  if (query.customer_id !== undefined && !(await findCustomerForStaff(db, salonId, query.customer_id, staff))) {
    throw notFound(MESSAGES.customerNotFound);
  }
  const { rows, total } = await repo.listHistory(db, {
    salonId,
    customerId: query.customer_id,
    staffId,
    from: query.start_date ? localDateTimeToInstant(`${query.start_date}T00:00:00`, timeZone) : undefined,
    to: query.end_date ? localDateTimeToInstant(`${addDaysToDate(query.end_date, 1)}T00:00:00`, timeZone) : undefined,
    pattern: query.query ? `%${escapeLike(query.query)}%` : undefined,
    limit: query.limit,
    offset: query.offset,
  });
  // Fetched newest first (the latest `limit`), shown oldest first like a chat.
  return { items: rows.reverse().map((row) => present(deps, row)), total };
}

function present(deps: MessagesServiceDeps, row: repo.HistoryRow): LineMessageItem {
  const isBroadcast = row.source === 'b';
  return {
    id: `${row.source}${row.id}`,
    sent_at: instantToZonedIso(row.sent_at, deps.timeZone),
    sender_type: row.sender_type,
    customer_id: row.customer_id,
    customer_name: isBroadcast ? SERVER_MESSAGES.broadcastLabel(row.recipient_count ?? 0) : row.customer_name,
    customer_line_picture_url: row.customer_line_picture_url,
    message: row.message,
    image_url: row.image_url,
    broadcast_id: isBroadcast ? row.id : null,
    recipient_count: isBroadcast ? (row.recipient_count ?? 0) : null,
  };
}

/** The LINE messages of one send: the text, then the image (LINE fetches it from our public URL). */
function lineMessagesFor(text: string, image: StoredMedia | null): LineMessage[] {
  const messages: LineMessage[] = [];
  if (text) messages.push({ type: 'text', text });
  if (image) messages.push({ type: 'image', originalContentUrl: image.url, previewImageUrl: image.previewUrl });
  return messages;
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The text matches literally: %, _ and \ lose their LIKE meaning. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
