import { Alert, Stack, Text } from '@mantine/core';
import { MonthLevel } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { todayLocal } from '#src/lib/device-time';
import { formatCalendarDay } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { addMonths, firstOfMonth, weekdayOf, yearMonthOf } from './dates';
import { bookableDatesQuery, type MenuChoice } from './slot-queries';

export interface SlotDatePickerProps {
  /** The service, options and 指名 whose free days are shown. */
  choice: MenuChoice;
  selectedDate: string | null;
  /** Set while the chosen day's slots are being checked. */
  checking: boolean;
  /** docs/screens.md#booking-date-step "No slots on a day" or a load failure, shown under the calendar. */
  error: string | null;
  onChoose(date: string): void;
}

function dayLabel(date: string, bookable: boolean): string {
  return `${formatCalendarDay(date)}${bookable ? '（予約できます）' : ''}`;
}

/** Japanese calendars mark Sunday red and Saturday blue (the theme's text shades of them reach WCAG AA). */
const WEEKDAY_COLOURS: Record<number, { color?: string }> = {
  0: { color: 'var(--mantine-color-red-text)' },
  6: { color: 'var(--mantine-color-blue-text)' },
};

const BOOKABLE_OUTLINE = {
  outline: '2px solid var(--mantine-primary-color-filled)',
  outlineOffset: '-2px',
} as const;

/**
 * The wizard's date step and the customer's reschedule picker (docs/screens.md#booking-date-step): an inline
 * calendar, weeks from Sunday in Japanese (DatesProvider); only the days GET /api/bookable-dates/ lists for the menu
 * choice can be selected and they carry an outline; past days are greyed.
 */
export function SlotDatePicker({ choice, selectedDate, checking, error, onChoose }: SlotDatePickerProps) {
  const today = todayLocal();
  const [month, setMonth] = useState(() => firstOfMonth(selectedDate ?? today));
  const { year, month: monthNumber } = yearMonthOf(month);
  const bookable = useQuery(bookableDatesQuery(choice, year, monthNumber));
  const days = new Set(bookable.data ?? []);
  const isBookable = (date: string) => date >= today && days.has(date);

  return (
    <Stack gap="sm" align="center">
      {/* MonthLevel, not DatePicker: the year and decade views are not needed and would add ~6 KB gzipped. */}
      <MonthLevel
        month={month}
        onNext={() => setMonth(addMonths(month, 1))}
        onPrevious={() => setMonth(addMonths(month, -1))}
        previousDisabled={month <= firstOfMonth(today)}
        hasNextLevel={false}
        levelControlAriaLabel="表示中の月"
        nextLabel="次の月"
        previousLabel="前の月"
        monthLabelFormat="YYYY年M月"
        minDate={today}
        excludeDate={(date) => !isBookable(date)}
        getDayProps={(date) => ({
          selected: date === selectedDate,
          style: {
            ...(isBookable(date) ? BOOKABLE_OUTLINE : {}),
            // The selected day keeps Mantine's white on the primary colour.
            ...(date === selectedDate ? {} : WEEKDAY_COLOURS[weekdayOf(date)]),
          },
          onClick: () => {
            if (!checking) onChoose(date);
          },
        })}
        getDayAriaLabel={(date) => dayLabel(date, isBookable(date))}
        hideOutsideDates
        size="md"
        role="group"
        aria-label="予約日を選ぶカレンダー"
      />
      {bookable.isPending && <LoadingState label="予約できる日を読み込み中…" />}
      {bookable.isError && (
        <RetryAlert title={MESSAGES.bookableDatesLoadFailed} w="100%" onRetry={() => void bookable.refetch()} />
      )}
      {bookable.isSuccess && !bookable.data.some((date) => date >= today) && (
        <Text size="sm" c="dimmed" ta="center">
          {MESSAGES.noBookableDaysInMonth}
        </Text>
      )}
      {bookable.isSuccess && bookable.data.some((date) => date >= today) && (
        <Text size="sm" c="dimmed" ta="center">
          枠で囲まれた日がご予約いただける日です。
        </Text>
      )}
      {checking && <LoadingState label="空き時間を確認しています…" />}
      {error && (
        <Alert color="red" role="alert" w="100%">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
