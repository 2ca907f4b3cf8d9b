/**
 * "Today" and "now" by this device's clock, written as the API's naive local values (`yyyy-MM-dd`,
 * `yyyy-MM-ddTHH:mm:ss`). The browser only: customers and staff are in the salon's zone, whereas the server
 * reads the salon's zone from its settings (src/shared/time.ts).
 */

const pad = (value: number) => String(value).padStart(2, '0');

export function todayLocal(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function nowLocal(now: Date = new Date()): string {
  return `${todayLocal(now)}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}
