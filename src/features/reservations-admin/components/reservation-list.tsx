import { Anchor, Card, Group, Stack, Table, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { formatDateTimeJa } from '#src/shared/format';
import type { Reservation } from '#src/shared/schemas/reservations';
import { ReservationStatusWithPending } from './pending-status';
import { paths } from '#src/lib/paths';

const detailPath = (reservation: Reservation) => paths.adminReservation(reservation.reservation_number);

/** docs/architecture.md#screens-and-texts: cards on mobile, a table on desktop; a row opens the detail. */
export function ReservationList({ reservations }: { reservations: Reservation[] }) {
  const desktop = useIsDesktop();
  return desktop ? <ReservationTable reservations={reservations} /> : <ReservationCards reservations={reservations} />;
}

function ReservationTable({ reservations }: { reservations: Reservation[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="予約一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">日時</Table.Th>
            <Table.Th scope="col">お客様</Table.Th>
            <Table.Th scope="col">メニュー</Table.Th>
            <Table.Th scope="col">担当</Table.Th>
            <Table.Th scope="col">ステータス</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reservations.map((reservation) => (
            <Table.Tr
              key={reservation.reservation_number}
              style={{ cursor: 'pointer' }}
              onClick={() => void navigate(detailPath(reservation))}
            >
              <Table.Td>
                {/* The link is the keyboard's and screen reader's way in; the whole row is the pointer's. */}
                <Anchor component={Link} to={detailPath(reservation)} onClick={(event) => event.stopPropagation()}>
                  {formatDateTimeJa(reservation.start_time)}
                </Anchor>
              </Table.Td>
              <Table.Td>{reservation.customer_name} 様</Table.Td>
              <Table.Td>{reservation.service_name}</Table.Td>
              <Table.Td>{reservation.staff_name}</Table.Td>
              <Table.Td>
                <ReservationStatusWithPending reservation={reservation} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ReservationCards({ reservations }: { reservations: Reservation[] }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="予約一覧">
      {reservations.map((reservation) => (
        <li key={reservation.reservation_number}>
          <Card component={Link} to={detailPath(reservation)} withBorder radius="md" padding="md">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2}>
                <Text fw={700}>{formatDateTimeJa(reservation.start_time)}</Text>
                <Text>{reservation.customer_name} 様</Text>
                <Text size="sm" c="dimmed">
                  {reservation.service_name}・担当 {reservation.staff_name}
                </Text>
              </Stack>
              <ReservationStatusWithPending reservation={reservation} />
            </Group>
          </Card>
        </li>
      ))}
    </Stack>
  );
}
