import { Alert, Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { errorDetail } from '../lib/api-client';
import { isApiError } from '../lib/api-errors';
import { paths } from '../lib/paths';
import { formatDateTimeJa } from '../shared/format';
import { MESSAGES } from '../shared/messages';
import type { StrandedReservations } from '../shared/schemas/schedule';

/**
 * The bookings a refused schedule change would have left outside working time (the 409 `code: 'stranded'` of the
 * shift, slot, holiday and closed-day endpoints, src/shared/schemas/schedule.ts), or null for any other error.
 */
export function strandedOf(error: unknown): StrandedReservations['reservations'] | null {
  if (!isApiError(error, 409) || error.code !== 'stranded') return null;
  const listed = (error.body as Partial<StrandedReservations>).reservations;
  return Array.isArray(listed) ? listed : [];
}

/**
 * Says that nothing was changed and why: the server's own sentence, then each booking in the way, each linking to
 * its detail so that the staff member can move or cancel it first.
 */
export function StrandedReservationsAlert({ error }: { error: unknown }) {
  const listed = strandedOf(error);
  if (!listed) return null;
  return (
    <Alert color="red" role="alert" title={MESSAGES.adminStrandedTitle}>
      <Text size="sm">{errorDetail(error, MESSAGES.scheduleStrandsReservations(listed.length))}</Text>
      {listed.length > 0 && (
        <List size="sm" mt="xs" spacing={4} aria-label="勤務時間外になる予約">
          {listed.map((reservation) => (
            <List.Item key={reservation.reservation_number}>
              <Anchor component={Link} to={paths.adminReservation(reservation.reservation_number)}>
                {reservation.reservation_number}
              </Anchor>{' '}
              {formatDateTimeJa(reservation.start_time)} {reservation.customer_name} 様（担当: {reservation.staff_name}
              ）
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
