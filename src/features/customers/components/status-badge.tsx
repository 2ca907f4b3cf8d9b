import { Badge } from '@mantine/core';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '../../../shared/constants';

/** SPEC.md §4, the staff detail's "newer" column: completed is blue there. */
const COLORS: Record<ReservationStatus, string> = {
  pending: 'yellow',
  confirmed: 'green',
  cancelled: 'red',
  completed: 'blue',
  no_show: 'gray',
};

/** Dark text on the filled colour: white on Mantine's yellow, green or red shade 6 fails WCAG AA. */
export function StatusBadge({ status }: { status: ReservationStatus }) {
  return (
    <Badge color={COLORS[status]} c="black" variant="filled">
      {RESERVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
