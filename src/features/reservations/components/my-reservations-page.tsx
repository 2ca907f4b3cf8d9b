import { Button, Card, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { LineLoginButton } from '#src/components/line-login-button';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { RetryAlert } from '#src/components/retry-alert';
import { StatusBadge } from '#src/components/status-badge';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { paths } from '#src/lib/paths';
import { formatDateTimeRangeJa, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { myReservationsQuery } from '../api/reservations-api';
import { MyWaitlist } from './my-waitlist';

const PAGE_TITLE = '予約一覧 | ネイルサロン予約';

/** /reservations: the signed-in customer's own bookings, upcoming (soonest first) and past (latest first). */
export function ReservationListPage() {
  const { signedIn } = useCustomerAuth();
  const { pathname } = useLocation();

  return (
    <PageContainer>
      <title>{PAGE_TITLE}</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          予約一覧
        </Title>
        {signedIn ? (
          <>
            <ReservationLists />
            <MyWaitlist />
          </>
        ) : (
          <Stack gap="md" align="center" ta="center">
            <Text>予約一覧を表示するには、LINEでログインしてください。</Text>
            <LineLoginButton
              label="LINEでログインして確認する"
              options={{ returnTo: pathname }}
              w={{ base: '100%', xs: 320 }}
            />
          </Stack>
        )}
        <HomeLink ta="center" />
      </Stack>
    </PageContainer>
  );
}

function ReservationLists() {
  const list = useQuery(myReservationsQuery());

  if (list.isPending) return <LoadingState label="予約一覧を読み込み中…" />;
  if (list.isError) return <RetryAlert title={MESSAGES.reservationListFailed} onRetry={() => void list.refetch()} />;

  const { upcoming, past } = list.data;
  if (upcoming.length === 0 && past.length === 0) {
    return (
      <Stack gap="md" align="center" ta="center">
        <Text>まだご予約はありません。</Text>
        <Button component={Link} to={paths.reserve} w={{ base: '100%', xs: 320 }}>
          予約する
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Section title="今後のご予約" id="upcoming-reservations" rows={upcoming} empty="今後のご予約はありません。" />
      <Button component={Link} to={paths.reserve} variant="light" fullWidth>
        新しく予約する
      </Button>
      <Section title="過去のご予約" id="past-reservations" rows={past} empty="過去のご予約はありません。" />
    </Stack>
  );
}

function Section({ title, id, rows, empty }: { title: string; id: string; rows: Reservation[]; empty: string }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((row) => (
            <li key={row.reservation_number}>
              <ReservationCard reservation={row} />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function ReservationCard({ reservation }: { reservation: Reservation }) {
  const when = formatDateTimeRangeJa(reservation.start_time, reservation.end_time);
  return (
    <UnstyledButton
      component={Link}
      to={paths.reservation(reservation.reservation_number)}
      w="100%"
      aria-label={`${when} ${reservation.service.name}（予約コード ${reservation.reservation_code}）の詳細`}
    >
      <Card withBorder padding="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={700} size="sm">
              {when}
            </Text>
            <Text size="sm" truncate="end">
              {reservation.service.name}・{formatYen(Number(reservation.service.price))}
            </Text>
            <Text size="xs" c="dimmed">
              予約コード {reservation.reservation_code}
            </Text>
          </Stack>
          <StatusBadge status={reservation.status} reading="shared" style={{ flexShrink: 0 }} />
        </Group>
      </Card>
    </UnstyledButton>
  );
}
