import { Badge, type BadgeProps } from '@mantine/core';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '../../../shared/constants';

/** SPEC.md §4, the staff detail's "newer" column: completed is blue there. */
export const ADMIN_STATUS_COLORS: Record<ReservationStatus, string> = {
  pending: 'yellow',
  confirmed: 'green',
  cancelled: 'red',
  completed: 'blue',
  no_show: 'gray',
};

/** Black text: white on Mantine's filled yellow, green or red fails WCAG AA. */
export function AdminStatusBadge({ status, ...props }: { status: ReservationStatus } & BadgeProps) {
  return (
    <Badge color={ADMIN_STATUS_COLORS[status]} c="black" variant="filled" data-status={status} {...props}>
      {RESERVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
