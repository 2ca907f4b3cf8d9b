import { Group, type BadgeProps } from '@mantine/core';
import { PendingBadge } from '#src/components/pending-badge';
import { StatusBadge } from '#src/components/status-badge';
import { usePendingReservation } from '../offline-changes';
import type { Reservation } from '#src/shared/schemas/reservations';

/**
 * A reservation's status as the front desk should see it (docs/architecture.md#offline-design): with a confirm or cancel still waiting
 * in the outbox, the status it leads to, marked 未送信; with one the server refused, 送信エラー.
 */
export function ReservationStatusWithPending({
  reservation,
  size,
}: {
  reservation: Reservation;
  size?: BadgeProps['size'];
}) {
  const pending = usePendingReservation(reservation.reservation_number);
  return (
    <Group gap={4} wrap="nowrap">
      <StatusBadge status={pending.value ?? reservation.status} reading="staff" size={size} />
      <PendingBadge pending={pending} />
    </Group>
  );
}
