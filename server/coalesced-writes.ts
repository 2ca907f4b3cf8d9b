/**
 * Writes that arrive together go to the database together. The calls made in one turn of the event loop share one
 * write, which starts when that turn ends (setImmediate: the worker's side-by-side sends of a batch are all made by
 * then); calls made while a write is in flight wait for it and are then written by the next one, in the order they
 * came. Under load many calls share one statement (one round trip, one `writev`), and no call waits longer than one
 * write in flight. Used for the live updates' NOTIFYs (server/features/events/pg-event-bus.ts) and the dev mailbox
 * and LINE inbox (server/integrations/mail/mailer.ts, server/integrations/line/inbox.ts). Each call settles as the
 * write that carried it did.
 */
export function coalescedWrites<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let waiting: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  async function writeAll() {
    try {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        await write(batch.map((entry) => entry.item)).then(
          () => batch.forEach((entry) => entry.resolve()),
          (error: unknown) => batch.forEach((entry) => entry.reject(error)),
        );
      }
    } finally {
      writing = false;
    }
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (writing) return;
      writing = true;
      setImmediate(() => void writeAll());
    });
}
