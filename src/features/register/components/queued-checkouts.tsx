import { Alert, Badge, List, Text } from '@mantine/core';
import { formatTime, formatYen } from '#src/shared/format';
import { useQueuedCheckouts } from '../offline/checkout-change';

/**
 * Checkouts made on this device that the server does not have yet (未送信) or refused: the day's drawer and its
 * closing count them only once they are sent, so the closing waits for them.
 */
export function QueuedCheckouts() {
  const queued = useQueuedCheckouts();
  if (queued.length === 0) return null;
  return (
    <Alert color="yellow" title={`この端末の未送信の会計（${queued.length}件）`}>
      <Text size="sm">接続が戻ると自動で送信します。レジ締めは送信が済んでから行ってください。</Text>
      <List size="sm" mt="xs" aria-label="未送信の会計">
        {queued.map(({ checkout, refused }) => (
          <List.Item key={checkout.receipt_number}>
            {formatTime(checkout.checked_out_at)} {checkout.receipt_number} {checkout.customer_name}{' '}
            {formatYen(checkout.total)}{' '}
            <Badge color={refused ? 'red' : 'yellow'} variant="light">
              {refused ? '送信できませんでした' : '未送信'}
            </Badge>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
