import { Badge, Group, Text } from '@mantine/core';
import { MESSAGES } from '#src/shared/messages';
import { UNCUT_BADGE_STYLES } from './status-badge';

interface IncidentInfo {
  /** The customer's 無断欠席 and 直前キャンセル so far; absent in answers cached offline before they existed. */
  noShows?: number;
  lateCancels?: number;
  /** The salon's rule holds this booking (or this customer's next online booking) for staff approval. */
  needsApproval?: boolean;
}

/**
 * What staff should know of a customer's attendance (server/db/incidents.ts), next to the booking or the customer:
 * 「要承認」 when the salon's rule held the booking back, with the reason (the counts); otherwise the counts alone
 * when there are any. Nothing for a customer without any (the usual case stays quiet).
 */
export function IncidentBadge({ noShows = 0, lateCancels = 0, needsApproval = false }: IncidentInfo) {
  if (!needsApproval && noShows + lateCancels === 0) return null;
  const summary = MESSAGES.incidentSummary(noShows, lateCancels);
  return (
    <Group gap={6} wrap="wrap" data-incidents={needsApproval ? 'needs-approval' : 'counted'}>
      {needsApproval && (
        <Badge color="orange" variant="filled" styles={UNCUT_BADGE_STYLES}>
          {MESSAGES.needsApproval}
        </Badge>
      )}
      {needsApproval ? (
        <Text size="sm" c="orange.9">
          {summary}
        </Text>
      ) : (
        <Badge color="gray" variant="light" styles={UNCUT_BADGE_STYLES}>
          {summary}
        </Badge>
      )}
    </Group>
  );
}

/** The staff customer detail's line: the counts always (zero included), and 「要承認」 when the rule applies. */
export function CustomerIncidents({
  customer,
}: {
  customer: { no_show_count?: number; late_cancel_count?: number; needs_approval?: boolean };
}) {
  if (customer.no_show_count === undefined) return null;
  const noShows = customer.no_show_count;
  const lateCancels = customer.late_cancel_count ?? 0;
  if (customer.needs_approval || noShows + lateCancels > 0) {
    return <IncidentBadge noShows={noShows} lateCancels={lateCancels} needsApproval={customer.needs_approval} />;
  }
  return (
    <Text size="sm" c="dimmed">
      {MESSAGES.incidentSummary(0, 0)}
    </Text>
  );
}

/** A staff reservation's badge: 「要承認」 only while it still waits (after staff confirm it, the counts remain). */
export function ReservationIncidentBadge({
  reservation,
}: {
  reservation: {
    status: string;
    needs_approval?: boolean;
    customer_no_show_count?: number;
    customer_late_cancel_count?: number;
  };
}) {
  return (
    <IncidentBadge
      noShows={reservation.customer_no_show_count}
      lateCancels={reservation.customer_late_cancel_count}
      needsApproval={reservation.needs_approval === true && reservation.status === 'pending'}
    />
  );
}
