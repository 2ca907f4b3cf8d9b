import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import type { ReferenceImagesOutcome } from '#src/components/karte/reference-images-api';
import { HomeLink } from '#src/components/home-link';
import { LoginForDetail } from '#src/components/login-for-detail';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { RetryAlert } from '#src/components/retry-alert';
import { SalonContact } from '#src/components/salon-contact';
import { isNotFound } from '#src/lib/api-client';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { formatDateTimeRangeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { paths } from '#src/lib/paths';
import { bookedReservationQuery } from '../api/booking-api';

const SUCCESS_TITLE = 'ご予約を受け付けました | ネイルサロン予約';
const PAGE_TITLE = 'ご予約の確認 | ネイルサロン予約';

/**
 * /reservation-complete/{reservationNumber} (docs/screens.md#reservation-complete). The number is checked: the
 * page loads the reservation with the customer's session, and says success only for one of theirs.
 */
export function ReservationCompletePage() {
  const number = useParams().reservationNumber;
  const { signedIn } = useCustomerAuth();
  const { pathname } = useLocation();

  let content;
  if (!number) {
    content = (
      <>
        <title>{PAGE_TITLE}</title>
        <Title order={1} size="h2">
          ご予約の確認
        </Title>
        <Alert color="red" role="alert">
          {MESSAGES.reservationNumberMissing}
        </Alert>
      </>
    );
  } else if (!signedIn) {
    content = (
      <Stack gap="md" align="center" ta="center">
        <title>{PAGE_TITLE}</title>
        <Title order={1} size="h2">
          ご予約の確認
        </Title>
        <LoginForDetail returnTo={pathname} />
      </Stack>
    );
  } else {
    content = <Booked number={number} />;
  }

  return (
    <PageContainer>
      <Stack gap="md">
        {content}
        <SalonContact />
        <Button component={Link} to="/reserve" fullWidth>
          続けて予約する
        </Button>
        <HomeLink ta="center" />
      </Stack>
    </PageContainer>
  );
}

/** What became of the デザインの参考画像 sent right after booking (the wizard passes it in the navigation state). */
function ReferenceImagesResult() {
  const outcome = (useLocation().state as { referenceImages?: ReferenceImagesOutcome } | null)?.referenceImages;
  if (!outcome) return null;
  if (outcome.failed > 0) {
    return (
      <Alert color="yellow" role="alert">
        {MESSAGES.referenceImagesFailed}
      </Alert>
    );
  }
  return (
    <Alert color="green" role="status">
      {MESSAGES.referenceImagesSent(outcome.sent)}
    </Alert>
  );
}

/** What was booked, as the customer chose it: the day with its times, the menu with its options, and who serves. */
function BookedSummary({ data }: { data: Reservation }) {
  const menu = [data.service_name, ...data.options.map((option) => option.name)].join(' + ');
  const rows: Array<[string, string]> = [
    ['日時', formatDateTimeRangeJa(data.start_time, data.end_time)],
    ['メニュー', menu],
    ['担当', `${data.staff_name}${data.is_nominated ? '（指名）' : ''}`],
  ];
  return (
    <Paper withBorder p="md" component="dl" m={0} aria-label="ご予約内容">
      {rows.map(([label, value]) => (
        <Group key={label} gap="sm" wrap="nowrap" align="baseline">
          <Text component="dt" size="sm" fw={700} w="4em" style={{ flexShrink: 0 }}>
            {label}
          </Text>
          <Text component="dd" m={0} fw={label === '日時' ? 700 : undefined}>
            {value}
          </Text>
        </Group>
      ))}
    </Paper>
  );
}

function Booked({ number }: { number: string }) {
  const reservation = useQuery(bookedReservationQuery(number));

  if (reservation.isPending) {
    return (
      <>
        <Title order={1} size="h2">
          ご予約の確認
        </Title>
        <LoadingState label="予約情報を読み込み中…" />
      </>
    );
  }
  if (reservation.isError) {
    if (isNotFound(reservation.error)) {
      return (
        <Stack gap="md">
          <title>予約が見つかりません | ネイルサロン予約</title>
          <Title order={1} size="h2">
            予約が見つかりません
          </Title>
          <Alert color="red" role="alert" title={MESSAGES.reservationNotFound}>
            予約番号をご確認ください。ご自身のご予約は予約一覧からご確認いただけます。
          </Alert>
          <Button component={Link} to={paths.reservations} variant="light" fullWidth>
            予約一覧を見る
          </Button>
        </Stack>
      );
    }
    return (
      <>
        <Title order={1} size="h2">
          ご予約の確認
        </Title>
        <RetryAlert title={MESSAGES.reservationFetchFailed} onRetry={() => void reservation.refetch()} />
      </>
    );
  }

  const data = reservation.data;
  return (
    <Stack gap="md">
      <title>{SUCCESS_TITLE}</title>
      <Title order={1} size="h2">
        ご予約を受け付けました
      </Title>
      <BookedSummary data={data} />
      <Paper withBorder p="md">
        <Group gap="xs" align="baseline">
          <Text size="sm" fw={700}>
            予約コード
          </Text>
          <Code fz="lg" fw={700}>
            {data.reservation_code}
          </Code>
        </Group>
        <Text size="sm" fw={700} mt="xs">
          予約番号
        </Text>
        <Code block fz="md" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
          {data.reservation_number}
        </Code>
        <Text size="sm" mt="xs">
          予約の確認・変更・キャンセルの際に必要になります。大切に保管してください。お電話では予約コードをお伝えください。
        </Text>
      </Paper>
      <Text>
        {/* A salon that confirms online bookings at once (server/db/incidents.ts) sends the confirmation itself. */}
        {data.status === 'confirmed'
          ? 'ご入力いただいたメールアドレスに確認メールをお送りしました。ご予約は確定しています。'
          : 'ご入力いただいたメールアドレスに確認メールをお送りしました。サロンでご予約を確認しましたら、改めてご連絡いたします。'}
      </Text>
      <ReferenceImagesResult />
      <Button component={Link} to={paths.reservation(data.reservation_number)} variant="light" fullWidth>
        予約内容を確認する
      </Button>
      <Button component={Link} to={paths.reservations} variant="default" fullWidth>
        予約一覧を見る
      </Button>
    </Stack>
  );
}
