import dayjs from 'dayjs';

/** "Today" and "now" on the device, as the API's naive local values (the front desk runs in the salon's zone). */
export function todayLocal(): string {
  return dayjs().format('YYYY-MM-DD');
}

export function nowLocal(): string {
  return dayjs().format('YYYY-MM-DDTHH:mm:ss');
}

/** Whether a naive local date-time has begun (completed / no-show are offered only then). */
export function hasStarted(localDateTime: string): boolean {
  return localDateTime <= nowLocal();
}

/** A calendar day's name for screen readers: "2030年1月15日" (Mantine's default reads "15 1月 2030"). */
export function dayAriaLabel(date: string): string {
  return dayjs(date).format('YYYY年M月D日');
}

/** Names for the calendar's header buttons (Mantine gives them none). */
export const CALENDAR_ARIA_LABELS = {
  monthLevelControl: '年月を選ぶ',
  yearLevelControl: '年を選ぶ',
  nextMonth: '次の月',
  previousMonth: '前の月',
  nextYear: '次の年',
  previousYear: '前の年',
  nextDecade: '次の10年',
  previousDecade: '前の10年',
};

/** Mantine's placeholder grey (2.1:1 on white) fails WCAG AA where it is real text, as in the date pickers. */
export const DIMMED_PLACEHOLDER = { placeholder: { color: 'var(--mantine-color-dimmed)' } };

/** Mantine draws weekend numbers in a red that fails WCAG AA contrast: no day is styled as a weekend. */
export const NO_WEEKEND_COLOURS: (0 | 1 | 2 | 3 | 4 | 5 | 6)[] = [];
