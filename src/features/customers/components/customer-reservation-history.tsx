import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { StatusBadge } from '#src/components/status-badge';
import { formatDateTimeJa } from '#src/shared/format';
import { useCustomerReservations } from '../api/customers-queries';
import { paths } from '#src/lib/paths';

/** The customer's reservations, newest first (docs/screens.md#customer-detail). */
export function CustomerReservationHistory({ customerId }: { customerId: number }) {
  const reservations = useCustomerReservations(customerId);

  let content;
  if (reservations.isPending) content = <LoadingState />;
  else if (reservations.isError)
    content = (
      <Alert color="red" role="alert">
        予約履歴の取得に失敗しました。
      </Alert>
    );
  else if (reservations.data.length === 0) content = <Text c="dimmed">予約履歴はありません。</Text>;
  else
    content = (
      <Table.ScrollContainer minWidth={340}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>日時</Table.Th>
              <Table.Th>メニュー</Table.Th>
              <Table.Th>ステータス</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reservations.data.map((reservation) => (
              <Table.Tr key={reservation.reservation_number}>
                <Table.Td>
                  <Anchor component={Link} to={paths.adminReservation(reservation.reservation_number)} size="sm">
                    {formatDateTimeJa(reservation.start_time)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{reservation.service_name}</Table.Td>
                <Table.Td>
                  <StatusBadge status={reservation.status} reading="staff" />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        予約履歴
      </Title>
      {content}
    </Stack>
  );
}
