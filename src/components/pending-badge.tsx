import { Badge } from '@mantine/core';
import type { PendingChange } from '../lib/outbox-hooks';

/**
 * Marks an object with changes the server has not accepted yet (docs/architecture.md#offline-design): 未送信 while they wait, 送信エラー
 * when the server refused one (the shell lists those with the choice to discard or send again).
 */
export function PendingBadge({ pending }: { pending: PendingChange<unknown> }) {
  if (pending.refused) {
    return (
      <Badge color="red" variant="filled" data-pending="refused">
        送信エラー
      </Badge>
    );
  }
  if (!pending.waiting) return null;
  return (
    <Badge color="orange" variant="filled" data-pending="waiting">
      未送信
    </Badge>
  );
}
