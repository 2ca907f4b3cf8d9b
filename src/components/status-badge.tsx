import { Badge, type BadgeProps, type MantineColor } from '@mantine/core';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '../shared/constants';

/**
 * docs/screens.md#status-labels gives two colour readings that differ only for completed: grey on the customer/shared detail
 * ('shared'), blue on the staff screens ('staff', the "newer" column).
 */
type StatusReading = 'shared' | 'staff';

const COLOURS: Record<StatusReading, Record<ReservationStatus, MantineColor>> = {
  shared: { pending: 'yellow', confirmed: 'green', cancelled: 'red', completed: 'gray', no_show: 'gray' },
  staff: { pending: 'yellow', confirmed: 'green', cancelled: 'red', completed: 'blue', no_show: 'gray' },
};

interface StatusBadgeProps extends BadgeProps {
  status: ReservationStatus;
  reading: StatusReading;
}

/**
 * Never shrunk or cut: Mantine's badge ellipsises its label when a narrow row (a phone's table cell or flex row)
 * squeezes it, which cut キャンセル into キャン… . The badge keeps the width of its label instead.
 */
export const UNCUT_BADGE_STYLES = {
  root: { flexShrink: 0, minWidth: 'max-content', maxWidth: 'none', overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** A reservation's status label in its colour (docs/screens.md#status-labels); the theme picks the text colour that stays readable on it. */
export function StatusBadge({ status, reading, ...props }: StatusBadgeProps) {
  return (
    <Badge color={COLOURS[reading][status]} data-status={status} styles={UNCUT_BADGE_STYLES} {...props}>
      {RESERVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
