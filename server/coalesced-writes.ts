/**
 * Writes that arrive together go to the database together. The first call writes at once; calls made while that
 * write is in flight wait for it and are then written by the next one, in the order they came. Under load many
 * calls share one statement (one round trip, one `writev`), and no call waits longer than one write in flight.
 * Used for the live updates' NOTIFYs (server/features/events/pg-event-bus.ts) and the dev mailbox and LINE inbox
 * (server/integrations/mail/mailer.ts, server/integrations/line/inbox.ts). Each call settles as the write that
 * carried it did.
 */
export function coalescedWrites<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let waiting: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  async function writeAll() {
    writing = true;
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
      if (!writing) void writeAll();
    });
}
