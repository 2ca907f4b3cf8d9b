/**
 * Display formats shared by the browser and the server (e-mails, LINE messages). Pure string work: inputs are
 * the API's naive salon-local values, so no time zone is involved here.
 */

// Made on first use, not when the module loads: a page's first Intl formatter costs a phone ~15 ms of main
// thread (locale data), which first screens that show no price (the login, /reserve signed out) need not pay.
let groupedInteger: Intl.NumberFormat | undefined;

/** 6600 -> "¥6,600" (docs/screens.md#formats: yen with thousands separators). */
export function formatYen(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  groupedInteger ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return `${sign}¥${groupedInteger.format(Math.abs(Math.round(amount)))}`;
}

/** 30 -> "30分", 60 -> "1時間", 90 -> "1時間半", 120 -> "2時間" (docs/screens.md#formats). Off-grid values keep their minutes. */
export function formatDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  if (total < 60) return `${total}分`;
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  if (rest === 0) return `${hours}時間`;
  if (rest === 30) return `${hours}時間半`;
  return `${hours}時間${rest}分`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/;

function parts(local: string) {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match) throw new RangeError(`Not a local date-time: ${local}`);
  const [, year = '', month = '', day = '', hour = '00', minute = '00'] = match;
  return { year, month, day, hour, minute };
}

const WEEKDAYS = '日月火水木金土';

/** The weekday of a calendar date: no time zone is involved, the date is a day of the proleptic calendar. */
function weekdayName(year: string, month: string, day: string): string {
  return WEEKDAYS[new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDay()]!;
}

/**
 * "2026-12-02" (or a date-time) -> "2026年12月2日(水)": the one way the app writes a day, on every screen and in
 * every e-mail and LINE message (no leading zeros, with the weekday).
 */
export function formatDateJa(localIso: string): string {
  const { year, month, day } = parts(localIso);
  return `${year}年${Number(month)}月${Number(day)}日(${weekdayName(year, month, day)})`;
}

/** "2026-12-02T14:00:00" -> "2026年12月2日(水) 14:00". */
export function formatDateTimeJa(localIso: string): string {
  const { hour, minute } = parts(localIso);
  return `${formatDateJa(localIso)} ${hour}:${minute}`;
}

/**
 * A booking's time: "2026-12-02T14:00" + "2026-12-02T16:00" -> "2026年12月2日(水) 14:00〜16:00". An end on
 * another day (never at a salon, but the function must not lie) is written with its date.
 */
export function formatDateTimeRangeJa(startLocal: string, endLocal: string): string {
  const end = parts(endLocal);
  const sameDay = startLocal.slice(0, 10) === endLocal.slice(0, 10);
  return `${formatDateTimeJa(startLocal)}〜${sameDay ? `${end.hour}:${end.minute}` : formatDateTimeJa(endLocal)}`;
}

/** "2030-01-05" -> "2030年1月5日", without leading zeros: how the calendars name a day to screen readers. */
export function formatCalendarDay(localIso: string): string {
  const { year, month, day } = parts(localIso);
  return `${year}年${Number(month)}月${Number(day)}日`;
}

/** "2025-01-31" (or a date-time) -> "2025/01/31", docs/screens.md#formats's default date format. */
export function formatDateSlash(localIso: string): string {
  const { year, month, day } = parts(localIso);
  return `${year}/${month}/${day}`;
}

/** "2025-01-31T09:00:00" or "09:00:00" -> "09:00". */
export function formatTime(localIsoOrTime: string): string {
  const match = /(?:^|T| )(\d{2}):(\d{2})/.exec(localIsoOrTime);
  if (!match) throw new RangeError(`Not a time: ${localIsoOrTime}`);
  return `${match[1]}:${match[2]}`;
}
