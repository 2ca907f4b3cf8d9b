import { Button, Group, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { todayLocal } from '#src/lib/device-time';
import { formatCalendarDay } from '#src/shared/format';
import { addDaysToDate } from '#src/shared/time';

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

/** "2026-12-02" → "2026年12月2日(水)". */
function formatBoardDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${formatCalendarDay(date)}(${WEEKDAYS[new Date(year!, month! - 1, day!).getDay()]})`;
}

/** The board's day: 前日, 今日 and 翌日, and a calendar for any other (a swipe on the board turns the day too). */
export function BoardDateNav({ date, onChange }: { date: string; onChange(date: string): void }) {
  const today = todayLocal();
  return (
    <Group gap="xs" align="center" wrap="wrap">
      <Text fw={700} size="lg" aria-live="polite" miw={180}>
        {formatBoardDate(date)}
        {date === today && '（今日）'}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Button variant="default" onClick={() => onChange(addDaysToDate(date, -1))}>
          前日
        </Button>
        <Button variant="default" onClick={() => onChange(today)} disabled={date === today}>
          今日
        </Button>
        <Button variant="default" onClick={() => onChange(addDaysToDate(date, 1))}>
          翌日
        </Button>
        <DatePickerInput
          {...CALENDAR_PROPS}
          aria-label="日付を選ぶ"
          valueFormat="YYYY/MM/DD"
          value={date}
          onChange={(value) => value && onChange(value)}
          w={130}
        />
      </Group>
    </Group>
  );
}
