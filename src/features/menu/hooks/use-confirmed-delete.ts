import { useState } from 'react';
import { MESSAGES } from '#src/shared/messages';
import { showNotification } from '#src/lib/notify';

interface DeleteMutation {
  mutate(id: number, callbacks: { onSuccess: () => void; onError: () => void }): void;
}

/**
 * A delete that waits for the person's confirmation (the menu screen's services and options): `ask` opens the
 * dialog for an item, `confirm` deletes it and says how that went, `cancel` closes the dialog.
 */
export function useConfirmedDelete<T extends { id: number; name: string }>(remove: DeleteMutation) {
  const [pending, setPending] = useState<T | null>(null);
  const confirm = () => {
    if (!pending) return;
    const target = pending;
    setPending(null);
    remove.mutate(target.id, {
      onSuccess: () => showNotification({ color: 'green', message: `「${target.name}」を削除しました。` }),
      onError: () => showNotification({ color: 'red', message: MESSAGES.adminDeleteFailed }),
    });
  };
  return { pending, ask: (item: T) => setPending(item), cancel: () => setPending(null), confirm };
}
