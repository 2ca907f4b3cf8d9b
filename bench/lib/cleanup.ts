/** What must not outlive an interrupted benchmark: server processes, PostgreSQL clusters, temporary folders. */
const pending = new Set<() => void>();

/** Registers `undo`; call the returned function once it has been done the normal way. */
export function onCleanup(undo: () => void): () => void {
  pending.add(undo);
  return () => pending.delete(undo);
}

/** Runs what is still registered, newest first (processes before the database they use). */
export function cleanupNow(): void {
  for (const undo of [...pending].reverse()) {
    pending.delete(undo);
    try {
      undo();
    } catch {
      // Best effort: the process is on its way out.
    }
  }
}
