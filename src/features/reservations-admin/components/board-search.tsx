import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { todayLocal } from '#src/lib/device-time';
import { formatDateTimeJa } from '#src/shared/format';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { useAdminReservations } from '../api/reservations-admin-queries';
import { parseReservationSearch, type ReservationSearch } from '../search';
import { ReservationSearchBox } from './reservation-search-box';

/** At most this many matches are listed under the box: a code finds one, a name a few. */
const SHOWN = 8;

/**
 * The 台帳's search box (docs/screens.md#admin-day-board): a 予約コード (any case, hyphen or not) anywhere in time, or a
 * name or phone number among the bookings from today on. A match moves the board to its day and marks its block.
 */
export function BoardSearch({ onFound }: { onFound(reservation: Reservation): void }) {
  const [search, setSearch] = useState<ReservationSearch>(null);
  const filters = !search
    ? { status: [] }
    : 'code' in search
      ? { status: [], code: search.code }
      : { status: [...ACTIVE_RESERVATION_STATUSES], start_date: todayLocal(), q: search.q };
  const found = useAdminReservations(filters, search !== null);

  return (
    <Stack gap="xs">
      <ReservationSearchBox typed="" onSearch={(typed) => setSearch(parseReservationSearch(typed))} />
      {search && (
        <SearchResults
          rows={found.data}
          failed={found.isError}
          onPick={(reservation) => {
            onFound(reservation);
            setSearch(null);
          }}
        />
      )}
    </Stack>
  );
}

function SearchResults(props: { rows?: Reservation[]; failed: boolean; onPick(reservation: Reservation): void }) {
  if (props.failed) return <Text c="red">{MESSAGES.reservationFetchFailed}</Text>;
  if (!props.rows) return <Text c="dimmed">検索中…</Text>;
  if (props.rows.length === 0) return <Text c="dimmed">一致する予約はありません。</Text>;
  return (
    <Paper withBorder radius="md" p={4} component="ul" aria-label="検索結果" style={{ listStyle: 'none', margin: 0 }}>
      {props.rows.slice(0, SHOWN).map((row) => (
        <li key={row.reservation_number}>
          <UnstyledButton w="100%" p="xs" onClick={() => props.onPick(row)}>
            <Text size="sm">
              {formatDateTimeJa(row.start_time)} {row.customer_name} 様（{row.staff_name}） 予約コード{' '}
              {row.reservation_code}
            </Text>
          </UnstyledButton>
        </li>
      ))}
    </Paper>
  );
}
