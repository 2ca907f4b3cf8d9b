import { SLOT_MINUTES } from './constants';

/** `HH:mm` (or `HH:mm:ss`) to minutes since midnight. */
export function timeToMinutes(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** Minutes since midnight to `HH:mm`. */
export function minutesToTime(total: number): string {
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The 30-minute grid from `start` (inclusive) to `end` (exclusive), as `HH:mm`. */
export function slotGrid(start: string, end: string): string[] {
  const times: string[] = [];
  for (let t = timeToMinutes(start); t < timeToMinutes(end); t += SLOT_MINUTES) times.push(minutesToTime(t));
  return times;
}

export interface Interval {
  /** Minutes since the day's local midnight; may run past 1440 or below 0 for bookings across midnight. */
  start: number;
  end: number;
}

export const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/**
 * The starts one staff member can take for a service of `durationMinutes` on one day (docs/architecture.md):
 * every 30-minute slot in [t, t + D) is open, nothing active overlaps [t, t + D), and t is not before
 * `earliestStart` (the minimum notice, in minutes since the same midnight).
 */
export function bookableStarts(input: {
  openSlots: readonly string[];
  busy: readonly Interval[];
  durationMinutes: number;
  earliestStart?: number;
}): string[] {
  const open = new Set(input.openSlots.map(timeToMinutes));
  const starts: string[] = [];
  for (const start of [...open].sort((a, b) => a - b)) {
    if (input.earliestStart !== undefined && start < input.earliestStart) continue;
    const candidate = { start, end: start + input.durationMinutes };
    let covered = true;
    for (let t = start; t < candidate.end; t += SLOT_MINUTES) {
      if (!open.has(t)) {
        covered = false;
        break;
      }
    }
    if (covered && !input.busy.some((interval) => overlaps(interval, candidate))) starts.push(minutesToTime(start));
  }
  return starts;
}

/** Grid times covered by any of the intervals (a booking from 10:00 for 90 minutes covers 10:00, 10:30, 11:00). */
export function coveredGridTimes(grid: readonly string[], intervals: readonly Interval[]): string[] {
  return grid.filter((time) => {
    const slot = { start: timeToMinutes(time), end: timeToMinutes(time) + SLOT_MINUTES };
    return intervals.some((interval) => overlaps(interval, slot));
  });
}
