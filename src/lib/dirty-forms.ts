import { useEffect, useId } from 'react';

/**
 * Forms with unsaved input (docs/architecture.md#offline-design): a new version of the app does not reload the page while one is open.
 * A form calls `useDirtyForm(isDirty)`; the update prompt (src/app/pwa-update.tsx) asks `hasDirtyForms()`.
 */
const dirty = new Set<string>();
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export function hasDirtyForms(): boolean {
  return dirty.size > 0;
}

export function subscribeToDirtyForms(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDirtyForm(isDirty: boolean): void {
  const id = useId();
  useEffect(() => {
    if (!isDirty) return;
    dirty.add(id);
    notify();
    return () => {
      dirty.delete(id);
      notify();
    };
  }, [id, isDirty]);
}
