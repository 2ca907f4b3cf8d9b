import { Badge, type BadgeProps, type MantineColor } from '@mantine/core';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '../shared/constants';

/**
 * docs/architecture.md#screens-and-texts gives two colour readings that differ only for completed: grey on the customer/shared detail
 * ('shared'), blue on the staff screens ('staff', the "newer" column).
 */
export type StatusReading = 'shared' | 'staff';

const COLOURS: Record<StatusReading, Record<ReservationStatus, MantineColor>> = {
  shared: { pending: 'yellow', confirmed: 'green', cancelled: 'red', completed: 'gray', no_show: 'gray' },
  staff: { pending: 'yellow', confirmed: 'green', cancelled: 'red', completed: 'blue', no_show: 'gray' },
};

export interface StatusBadgeProps extends BadgeProps {
  status: ReservationStatus;
  reading: StatusReading;
}

/** A reservation's status label in its SPEC colour; the theme picks the text colour that stays readable on it. */
export function StatusBadge({ status, reading, ...props }: StatusBadgeProps) {
  return (
    <Badge color={COLOURS[reading][status]} data-status={status} {...props}>
      {RESERVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
