import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { ReferenceImagesField } from '#src/components/karte/reference-images-field';
import { SalonContact } from '#src/components/salon-contact';
import { SummaryList } from '#src/components/summary-list';
import { canStillCancelLocal, cancellationDeadlineLocal } from '#src/shared/cancellation';
import { formatDateTimeJa, formatDateTimeRangeJa, formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service, ServiceOption } from '#src/shared/schemas/booking';
import { addMinutesToTime } from '#src/components/slot-picker/dates';
import { optionNote, type MenuTotal } from '#src/lib/menu-total';
import type { CustomerDetails } from '../validation';

export interface ConfirmStepProps {
  service: Service;
  options: readonly ServiceOption[];
  /** The named staff member, or null for 指名なし. */
  staff: BookableStaff | null;
  total: MenuTotal;
  date: string;
  time: string;
  details: CustomerDetails;
  /** Days before the start until which customers cancel online (salon setting); undefined when unknown. */
  deadlineDays: number | undefined;
  submitting: boolean;
  online: boolean;
  error: string | null;
  onSubmit(): void;
  onEdit(): void;
  /** The optional デザインの参考画像, uploaded after the booking succeeds. */
  referenceImages?: readonly File[];
  onReferenceImagesChange?(files: File[]): void;
}

/** The browser's wall clock as `yyyy-MM-ddTHH:mm:ss`: the wizard's calendar is the browser's too (dates.ts). */
function localNow(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/**
 * The cancellation rule for this start: the deadline computed as the server enforces it (src/shared/cancellation.ts),
 * or, when it has already passed (a start soon after now), that this booking cannot be cancelled online.
 */
export function policyText(deadlineDays: number | undefined, localStart: string, now: Date = new Date()): string {
  if (deadlineDays === undefined) {
    return 'キャンセル期限はご予約後の予約詳細ページでご確認いただけます。期限を過ぎた後のキャンセル・変更は、お手数ですがサロンへ直接ご連絡ください。';
  }
  const deadline = formatDateTimeJa(cancellationDeadlineLocal(localStart, deadlineDays));
  if (!canStillCancelLocal(localStart, deadlineDays, localNow(now))) {
    return `このご予約はキャンセル期限（${deadline}）を過ぎているため、オンラインではキャンセルできません。キャンセル・変更の際は、お手数ですがサロンへ直接ご連絡ください。`;
  }
  const rule = deadlineDays === 0 ? 'ご予約の開始時刻' : `ご予約日の${deadlineDays}日前`;
  return `${rule}（${deadline}）までは、予約詳細ページからキャンセル・日時の変更ができます。それ以降のキャンセル・変更は、お手数ですがサロンへ直接ご連絡ください。`;
}

/** Step 5 (docs/screens.md#booking-confirm-step): the cancellation policy, the summary, and the two buttons. */
export function ConfirmStep(props: ConfirmStepProps) {
  const { service, options, staff, total, date, time, details } = props;
  const fee = Number(staff?.nomination_fee ?? 0);
  // Every part of the price on its own row, then the totals the customer pays and is served.
  const rows: Array<[string, string]> = [
    ['メニュー', `${service.name}（${formatDuration(service.duration_minutes)} ${formatYen(Number(service.price))}）`],
    ...(options.length > 0
      ? [
          ['オプション', options.map((option) => `${option.name}（${optionNote(option)}）`).join('、')] as [
            string,
            string,
          ],
        ]
      : []),
    ['指名', staff ? staff.name : MESSAGES.noNomination],
    ...(fee > 0 ? [['指名料', formatYen(fee)] as [string, string]] : []),
    ['所要時間（合計）', formatDuration(total.minutes)],
    ['料金（合計）', formatYen(total.price)],
    ['日時', formatDateTimeRangeJa(`${date}T${time}`, `${date}T${addMinutesToTime(time, total.minutes)}`)],
    ['お名前', details.name],
    ['フリガナ', details.furigana || '未入力'],
    ['メールアドレス', details.email],
    ['電話番号', details.phone || '未入力'],
  ];

  return (
    <Stack gap="md">
      <Paper withBorder p="md" bg="var(--mantine-color-gray-0)" role="note" aria-labelledby="cancellation-policy">
        <Title order={2} size="h5" id="cancellation-policy" mb={4}>
          キャンセルポリシー
        </Title>
        <Text size="sm">{policyText(props.deadlineDays, `${date}T${time}:00`)}</Text>
      </Paper>

      <SummaryList rows={rows} />

      <SalonContact />

      {props.onReferenceImagesChange && (
        <ReferenceImagesField
          files={props.referenceImages ?? []}
          onChange={props.onReferenceImagesChange}
          disabled={props.submitting}
        />
      )}

      {props.error && (
        <Alert color="red" role="alert">
          {props.error}
        </Alert>
      )}

      <Button
        size="md"
        fullWidth
        onClick={props.onSubmit}
        loading={props.submitting}
        disabled={!props.online || props.submitting}
      >
        この内容で予約する
      </Button>
      {!props.online && (
        <Text size="sm" c="red" role="status">
          オフラインのため予約できません。接続を確認してください。
        </Text>
      )}
      <Button size="md" fullWidth variant="default" onClick={props.onEdit} disabled={props.submitting}>
        入力内容を修正する
      </Button>
    </Stack>
  );
}
