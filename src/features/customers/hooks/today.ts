/** Today's `yyyy-MM-dd` on this device (the salon's staff work in the salon's time zone). */
export function todayLocalDate(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
