import type { CalendarAriaLabels } from '@mantine/dates';
import { formatCalendarDay } from '../shared/format';

/**
 * What every staff calendar (DatePicker, DatePickerInput) shares: Japanese names for the header buttons, which
 * Mantine leaves unnamed, and for the days, which it reads as "15 1月 2030". Spread first; a screen that says
 * more about a day passes its own getDayAriaLabel after it. The neighbouring months' days are hidden, as in the
 * customer's calendar (src/components/slot-picker/date-picker.tsx): Mantine greys them out below the contrast WCAG
 * asks for, yet they can be clicked.
 */
export const CALENDAR_PROPS = {
  hideOutsideDates: true,
  ariaLabels: {
    monthLevelControl: '年月を選ぶ',
    yearLevelControl: '年を選ぶ',
    nextMonth: '次の月',
    previousMonth: '前の月',
    nextYear: '次の年',
    previousYear: '前の年',
    nextDecade: '次の10年',
    previousDecade: '前の10年',
  } satisfies CalendarAriaLabels,
  monthLabelFormat: 'YYYY年M月',
  getDayAriaLabel: (date: string) => formatCalendarDay(date),
};
