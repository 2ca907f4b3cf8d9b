import { NumberInput, SimpleGrid, Switch, Text, TextInput } from '@mantine/core';
import { numberSetter, SettingsFieldset, shown, type SettingsSectionProps } from './settings-fieldset';

/** サロン: the name on every page and message. */
export function SalonNameSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="サロン">
      <TextInput
        label="サロン名"
        required
        maw={480}
        value={form.salon_name}
        error={errors.salon_name}
        onChange={(event) => set('salon_name', event.currentTarget.value)}
      />
    </SettingsFieldset>
  );
}

/** お客様への連絡先: how customers reach the salon, shown on their pages and in the e-mails. */
export function ContactSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="お客様への連絡先">
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
    </SettingsFieldset>
  );
}

/** リマインダー: whether customers are reminded the day before their booking. */
export function RemindersSection({ form, set }: Omit<SettingsSectionProps, 'errors'>) {
  return (
    <SettingsFieldset legend="リマインダー">
      <Switch
        label="前日にリマインダーを送る"
        checked={form.reminders_enabled}
        onChange={(event) => set('reminders_enabled', event.currentTarget.checked)}
      />
    </SettingsFieldset>
  );
}

/** LINE: the monthly push limit of the salon's LINE plan, after which customers are told by e-mail. */
export function LineLimitSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="LINE">
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
        onChange={numberSetter(set, 'line_monthly_push_limit')}
      />
    </SettingsFieldset>
  );
}
