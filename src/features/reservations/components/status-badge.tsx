import { Badge } from '@mantine/core';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '../../../shared/constants';

/** SPEC.md §4: the colours of the customer/shared detail page (completed is grey here, blue on the staff page). */
export const CUSTOMER_STATUS_COLORS: Record<ReservationStatus, string> = {
  pending: 'yellow',
  confirmed: 'green',
  cancelled: 'red',
  completed: 'gray',
  no_show: 'gray',
};

export function StatusBadge({ status }: { status: ReservationStatus }) {
  return (
    <Badge color={CUSTOMER_STATUS_COLORS[status]} autoContrast size="lg" data-status={status}>
      {RESERVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
