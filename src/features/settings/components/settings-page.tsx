import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { strandedOf, StrandedReservationsAlert } from '#src/components/stranded-reservations-alert';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import { BLOCK_ROUNDING_CHOICES, SLOT_MINUTE_CHOICES, type SalonSettings } from '#src/shared/schemas/settings';
import { useSettings, useUpdateSettings } from '../api/settings-queries';
import { LineUsagePanel } from './line-usage-panel';
import { noShowRuleErrors, NoShowRulesSection } from './no-show-rules-section';

/** 00:00 … 24:00 every 30 minutes (the server's grid for business hours). */
export const HALF_HOURS = Array.from({ length: 49 }, (_, index) => {
  const minutes = index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
});

type Field = keyof SalonSettings;

/** インターバル: 0 to 60 minutes in steps of 5 (the database checks the same). */
const BUFFER_CHOICES = Array.from({ length: 13 }, (_, index) => index * 5);
/** 定休日 boxes, Sunday first like the calendars (0 = Sunday, as the server stores them). */
const WEEKDAY_LABELS = ['日', '月', '火', '水', '木', '金', '土'];
const minuteOptions = (choices: readonly number[]) =>
  choices.map((value) => ({ value: String(value), label: `${value}分` }));

/** Arrays (定休日) compare by their contents: an untouched list is no change. */
const same = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.join() === b.join() : a === b);

/** A cleared number field is NaN in the form and empty on screen. */
const shown = (value: number) => (Number.isFinite(value) ? value : '');
type FieldErrors = Partial<Record<Field, string>>;

/** The salon's rules that the server keeps (docs/architecture.md, docs/architecture.md#screens-and-texts cancellation deadline); superusers only. */
export function SettingsPage() {
  const settings = useSettings();
  return (
    <Stack gap="md">
      <title>設定 | スタッフ管理画面</title>
      <Title order={1} size="h2">
        設定
      </Title>
      <LineUsagePanel />
      {settings.isPending ? (
        <LoadingState />
      ) : settings.isError ? (
        <RetryAlert title={MESSAGES.adminSettingsLoadFailed} onRetry={() => void settings.refetch()} />
      ) : (
        // Keyed by the stored values: after a save the form starts again from what the server answered.
        <SettingsForm key={JSON.stringify(settings.data)} initial={settings.data} />
      )}
    </Stack>
  );
}

function SettingsForm({ initial }: { initial: SalonSettings }) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdateSettings();
  const set = <K extends Field>(key: K, value: SalonSettings[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const found: FieldErrors = {};
    if (!form.salon_name.trim()) found.salon_name = MESSAGES.fieldRequired;
    for (const key of ['cancellation_deadline_days', 'min_notice_minutes', 'max_upcoming_per_customer'] as const) {
      if (!Number.isFinite(form[key])) found[key] = MESSAGES.fieldRequired;
    }
    const limit = form.line_monthly_push_limit;
    if (!Number.isInteger(limit) || limit < 0 || limit > 1_000_000) {
      found.line_monthly_push_limit = MESSAGES.lineMonthlyLimitRange;
    }
    if (form.business_start >= form.business_end) found.business_end = MESSAGES.businessHoursOrder;
    Object.assign(found, noShowRuleErrors(form));
    // The server's rules (src/shared/schemas/settings.ts), said before the round trip.
    if (!/^(|\d[\d-]*\d)$/.test(form.phone_number.trim())) found.phone_number = MESSAGES.salonPhoneInvalid;
    if (form.map_url.trim() && !/^https:\/\/[^\s/]+/.test(form.map_url.trim())) found.map_url = MESSAGES.mapUrlInvalid;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // Only what changed: two superusers editing different settings do not overwrite each other.
    const patch = Object.fromEntries(
      (Object.keys(form) as Field[]).filter((key) => !same(form[key], initial[key])).map((key) => [key, form[key]]),
    );
    if (Object.keys(patch).length === 0) {
      showNotification({ color: 'gray', message: '変更はありません。' });
      return;
    }
    update.mutate(patch, {
      onSuccess: () => showNotification({ color: 'green', message: MESSAGES.adminSaved }),
      onError: (error) => {
        setErrors(fieldErrorsOf(error));
      },
    });
  };

  const number =
    (
      key:
        'cancellation_deadline_days' | 'min_notice_minutes' | 'max_upcoming_per_customer' | 'line_monthly_push_limit',
    ) =>
    (value: string | number) =>
      set(key, typeof value === 'number' ? value : Number.NaN);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            サロン
          </Text>
          <TextInput
            label="サロン名"
            required
            maw={480}
            value={form.salon_name}
            error={errors.salon_name}
            onChange={(event) => set('salon_name', event.currentTarget.value)}
          />
        </Paper>

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            お客様への連絡先
          </Text>
          <Text size="sm" c="dimmed" mb="xs">
            ログイン画面・予約確認・予約完了・予約詳細の各ページとメールに表示されます。空欄の項目は表示されません。
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="電話番号"
              type="tel"
              inputMode="tel"
              placeholder="03-1234-5678"
              description="数字とハイフン。タップで電話をかけられるリンクになります"
              value={form.phone_number}
              error={errors.phone_number}
              onChange={(event) => set('phone_number', event.currentTarget.value)}
            />
            <TextInput
              label="住所"
              value={form.address}
              error={errors.address}
              onChange={(event) => set('address', event.currentTarget.value)}
            />
            <TextInput
              label="地図のURL"
              type="url"
              inputMode="url"
              placeholder="https://maps.google.com/..."
              description="https:// で始まるURL"
              value={form.map_url}
              error={errors.map_url}
              onChange={(event) => set('map_url', event.currentTarget.value)}
            />
            <TextInput
              label="営業時間・定休日（表示用）"
              placeholder="10:00〜20:00（火曜定休）"
              value={form.opening_hours_text}
              error={errors.opening_hours_text}
              onChange={(event) => set('opening_hours_text', event.currentTarget.value)}
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            予約のルール
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <NumberInput
              label="キャンセル期限（日前）"
              description="0日は開始時刻まで"
              min={0}
              max={30}
              allowDecimal={false}
              allowNegative={false}
              value={shown(form.cancellation_deadline_days)}
              error={errors.cancellation_deadline_days}
              onChange={number('cancellation_deadline_days')}
            />
            <NumberInput
              label="予約受付の締切（分前）"
              description="開始の何分前まで予約を受け付けるか"
              min={0}
              max={10_080}
              step={30}
              allowDecimal={false}
              allowNegative={false}
              value={shown(form.min_notice_minutes)}
              error={errors.min_notice_minutes}
              onChange={number('min_notice_minutes')}
            />
            <NumberInput
              label="1人あたりの同時予約数の上限"
              min={1}
              max={20}
              allowDecimal={false}
              allowNegative={false}
              value={shown(form.max_upcoming_per_customer)}
              error={errors.max_upcoming_per_customer}
              onChange={number('max_upcoming_per_customer')}
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            営業時間
          </Text>
          <Group grow align="flex-start" maw={480}>
            <Select
              label="開始"
              allowDeselect={false}
              data={HALF_HOURS.slice(0, -1)}
              value={form.business_start}
              error={errors.business_start}
              onChange={(value) => value && set('business_start', value)}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="終了"
              allowDeselect={false}
              data={HALF_HOURS.slice(1)}
              value={form.business_end}
              error={errors.business_end}
              onChange={(value) => value && set('business_end', value)}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
          <Text size="sm" c="dimmed" mt="xs">
            受付時間設定の時間枠はこの範囲で表示されます。
          </Text>
        </Paper>

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            予約枠
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <NativeSelect
              label="予約の時間単位"
              description="お客様に表示する開始時刻の間隔"
              data={minuteOptions(SLOT_MINUTE_CHOICES)}
              value={String(form.slot_minutes)}
              error={errors.slot_minutes}
              onChange={(event) => set('slot_minutes', Number(event.currentTarget.value))}
            />
            <NativeSelect
              label="インターバル（施術後の片付け時間）"
              description="次の予約までに空ける時間"
              data={minuteOptions(BUFFER_CHOICES)}
              value={String(form.buffer_minutes)}
              error={errors.buffer_minutes}
              onChange={(event) => set('buffer_minutes', Number(event.currentTarget.value))}
            />
            <NativeSelect
              label="所要時間の丸め"
              description="予約がふさぐ時間をこの単位に切り上げます"
              data={minuteOptions(BLOCK_ROUNDING_CHOICES)}
              value={String(form.block_rounding_minutes)}
              error={errors.block_rounding_minutes}
              onChange={(event) => set('block_rounding_minutes', Number(event.currentTarget.value))}
            />
          </SimpleGrid>
          <Checkbox.Group
            label="定休日"
            description="この曜日は予約を受け付けません"
            mt="md"
            value={form.closed_weekdays.map(String)}
            error={errors.closed_weekdays}
            onChange={(values) =>
              set(
                'closed_weekdays',
                values.map(Number).sort((a, b) => a - b),
              )
            }
          >
            <Group gap="md" mt="xs">
              {WEEKDAY_LABELS.map((label, weekday) => (
                <Checkbox key={label} value={String(weekday)} label={label} aria-label={`${label}曜日`} />
              ))}
            </Group>
          </Checkbox.Group>
        </Paper>

        <NoShowRulesSection form={form} errors={errors} set={set} />

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            リマインダー
          </Text>
          <Switch
            label="前日にリマインダーを送る"
            checked={form.reminders_enabled}
            onChange={(event) => set('reminders_enabled', event.currentTarget.checked)}
          />
        </Paper>

        <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
          <Text component="legend" fw={700} px={4}>
            LINE
          </Text>
          <NumberInput
            label="LINEの月間送信上限（通）"
            description="ご契約のLINEプランで月に送れるメッセージ数（無料プランは200通）。0は上限なし。上限に達すると、お客様へのお知らせはメールで送ります"
            maw={480}
            min={0}
            max={1_000_000}
            // Said, not silently clamped: a typo of one digit too many is the likely cause.
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            value={shown(form.line_monthly_push_limit)}
            error={errors.line_monthly_push_limit}
            onChange={number('line_monthly_push_limit')}
          />
        </Paper>

        <StrandedReservationsAlert error={update.error} />
        {update.isError && !strandedOf(update.error) && (
          <Alert color="red" role="alert" title={errorDetail(update.error, MESSAGES.adminSlotsSaveFailed)} />
        )}
        <Group>
          <Button type="submit" loading={update.isPending}>
            保存する
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
