import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { LineLoginButton } from '#src/components/line-login-button';
import { RetryAlert } from '#src/components/retry-alert';
import { paths } from '#src/lib/paths';
import { formatDateTimeJa, formatDateTimeRangeJa, formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';

/** The parts of the reservation detail (reservation-detail-page.tsx), each a section of the page. */

/** "ジェルオフ（+30分 +¥1,100）": an option as booked (an option without added time shows only its price). */
function optionText(option: Reservation['options'][number]): string {
  const time = option.duration_minutes > 0 ? `+${formatDuration(option.duration_minutes)} ` : '';
  return `${option.name}（${time}+${formatYen(Number(option.price))}）`;
}

/** The rows of the summary, as the customer reads them. */
export function reservationRows(data: Reservation): Array<[string, string]> {
  return [
    ['予約番号', data.reservation_number],
    ['予約コード', data.reservation_code],
    ['サロン', data.salon.name],
    ['メニュー', data.service.name],
    ...(data.options.length > 0 ? [['オプション', data.options.map(optionText).join('、')] as [string, string]] : []),
    ['担当', `${data.staff_name}${data.is_nominated ? '（指名）' : ''}`],
    ...(data.is_nominated && Number(data.nomination_fee) > 0
      ? [['指名料', formatYen(Number(data.nomination_fee))] as [string, string]]
      : []),
    // The service's price and time here are the totals: service, options and 指名料.
    ['料金', formatYen(Number(data.service.price))],
    ['所要時間', `${data.service.duration_minutes}分`],
    ['日時', formatDateTimeRangeJa(data.start_time, data.end_time)],
    ['お名前', data.customer_name],
    ['メールアドレス', data.customer_email || 'なし'],
    ['電話番号', data.customer_phone || 'なし'],
  ];
}

/** The cancellation deadline of an open booking, and why the page offers no cancel when it does not. */
export function DeadlinePanel({
  data,
  viaLink,
  explainNoCancel,
}: {
  data: Reservation;
  viaLink: boolean;
  /** The customer can no longer cancel (the deadline passed). */
  explainNoCancel: boolean;
}) {
  return (
    <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
      <Text size="sm">
        キャンセル期限: <strong>{formatDateTimeJa(data.cancellation_deadline)}</strong>
      </Text>
      {viaLink ? (
        <Text size="sm" mt="xs">
          このページはメールのリンクから表示しています。キャンセル・変更は、お手数ですがサロンへ直接ご連絡ください（予約コードをお伝えください）。
        </Text>
      ) : (
        explainNoCancel && (
          <Text size="sm" mt="xs">
            {MESSAGES.cancellationDeadlinePassed}
          </Text>
        )
      )}
    </Paper>
  );
}

/** A reservation that could not be shown: gone, a dead e-mail link, or a failed read (with a retry). */
export function DetailLoadFailure({
  number,
  notFound,
  viaLink,
  onRetry,
  backButton,
}: {
  number: string;
  notFound: boolean;
  viaLink: boolean;
  onRetry: () => void;
  backButton: React.ReactNode;
}) {
  if (notFound && viaLink) {
    return (
      <Stack gap="md">
        <Alert color="red" role="alert" title={MESSAGES.reservationLinkInvalid} />
        <LineLoginButton
          label="LINEでログインして確認する"
          options={{ returnTo: paths.reservation(number) }}
          w={{ base: '100%', xs: 320 }}
        />
        <Group>{backButton}</Group>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {notFound ? (
        <Alert color="red" role="alert" title={MESSAGES.reservationNotFound} />
      ) : (
        <RetryAlert title={MESSAGES.reservationFetchFailed} onRetry={onRetry} />
      )}
      <Group>{backButton}</Group>
    </Stack>
  );
}

interface DetailActionsProps {
  number: string;
  backButton: React.ReactNode;
  online: boolean;
  pending: boolean;
  canConfirm: boolean;
  canCancel: boolean;
  /** 日時を変更 is offered (and the panel is not open yet). */
  offerReschedule: boolean;
  canRebook: boolean;
  onRun(kind: 'confirm' | 'cancel'): void;
  onReschedule(): void;
}

/** The page's buttons: back, and what this reader may do with the booking. */
export function DetailActions(props: DetailActionsProps) {
  const { number, backButton, online, pending, onRun } = props;
  return (
    <Group grow preventGrowOverflow={false} wrap="wrap">
      {backButton}
      {props.canConfirm && (
        <Button color="green" onClick={() => onRun('confirm')} loading={pending} disabled={!online}>
          予約を確定する
        </Button>
      )}
      {props.offerReschedule && (
        <Button variant="light" onClick={props.onReschedule} disabled={!online}>
          日時を変更
        </Button>
      )}
      {props.canCancel && (
        <Button color="red" onClick={() => onRun('cancel')} loading={pending} disabled={!online}>
          予約をキャンセルする
        </Button>
      )}
      {props.canRebook && (
        <Button component={Link} to={paths.rebook(number)}>
          前回と同じで予約
        </Button>
      )}
    </Group>
  );
}
