import { Checkbox, Group, NativeSelect, NumberInput, Select, SimpleGrid, Text } from '@mantine/core';
import { BLOCK_ROUNDING_CHOICES, SLOT_MINUTE_CHOICES } from '#src/shared/schemas/settings';
import { numberSetter, SettingsFieldset, shown, type SettingsSectionProps } from './settings-fieldset';

/** 00:00 … 24:00 every 30 minutes (the server's grid for business hours). */
const HALF_HOURS = Array.from({ length: 49 }, (_, index) => {
  const minutes = index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
});

/** インターバル: 0 to 60 minutes in steps of 5 (the database checks the same). */
const BUFFER_CHOICES = Array.from({ length: 13 }, (_, index) => index * 5);
/** 定休日 boxes, Sunday first like the calendars (0 = Sunday, as the server stores them). */
const WEEKDAY_LABELS = ['日', '月', '火', '水', '木', '金', '土'];
const minuteOptions = (choices: readonly number[]) =>
  choices.map((value) => ({ value: String(value), label: `${value}分` }));

/** 予約のルール: the cancellation deadline, the booking notice and how many upcoming bookings one customer holds. */
export function BookingRulesSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="予約のルール">
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
          onChange={numberSetter(set, 'cancellation_deadline_days')}
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
          onChange={numberSetter(set, 'min_notice_minutes')}
        />
        <NumberInput
          label="1人あたりの同時予約数の上限"
          min={1}
          max={20}
          allowDecimal={false}
          allowNegative={false}
          value={shown(form.max_upcoming_per_customer)}
          error={errors.max_upcoming_per_customer}
          onChange={numberSetter(set, 'max_upcoming_per_customer')}
        />
      </SimpleGrid>
    </SettingsFieldset>
  );
}

/** 営業時間: the range the 受付時間設定 grid shows. */
export function BusinessHoursSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="営業時間">
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
    </SettingsFieldset>
  );
}

/** 予約枠: the start interval, the インターバル, the rounding of a booking's length, and the 定休日. */
export function BookingSlotsSection({ form, errors, set }: SettingsSectionProps) {
  return (
    <SettingsFieldset legend="予約枠">
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
    </SettingsFieldset>
  );
}
