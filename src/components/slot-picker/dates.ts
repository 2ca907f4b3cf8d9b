/** Calendar strings of the wizard (`yyyy-MM-dd`, the API's format), from the browser's own calendar. */

const pad = (value: number) => String(value).padStart(2, '0');

/** `yyyy-MM-01` of the month that holds `date`. */
export function firstOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function yearMonthOf(date: string): { year: number; month: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

/** 0 (Sunday) to 6 (Saturday). */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getDay();
}

/** "10:00" + 90 -> "11:30" (the same day; salons close before midnight). */
export function addMinutesToTime(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = h * 60 + m + minutes;
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/** `yyyy-MM-01` of the month `delta` months after the one holding `date`. */
export function addMonths(date: string, delta: number): string {
  const { year, month } = yearMonthOf(date);
  const index = year * 12 + (month - 1) + delta;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
}
