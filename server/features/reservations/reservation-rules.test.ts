import { describe, expect, it } from 'vitest';
import { RESERVATION_STATUSES, type ReservationStatus } from '#src/shared/constants';
import { instantToLocalDateTime, localDateTimeToInstant } from '#src/shared/time';
import {
  beforeCancellationDeadline,
  cancellationDeadline,
  decideTransition,
  TRANSITIONS,
  type StaffAction,
} from './reservation-rules';

const TOKYO = 'Asia/Tokyo';
const at = (local: string) => localDateTimeToInstant(local, TOKYO);
const local = (instant: Date) => instantToLocalDateTime(instant, TOKYO);
const ACTIONS: StaffAction[] = ['confirm', 'cancel', 'complete', 'no_show'];

describe('reservation status transitions', () => {
  it('has exactly these rules: what each action starts from, leads to and announces', () => {
    expect(TRANSITIONS).toEqual({
      confirm: { from: ['pending'], to: 'confirmed', event: 'confirmed' },
      cancel: { from: ['pending', 'confirmed'], to: 'cancelled', event: 'cancelled' },
      complete: { from: ['pending', 'confirmed'], to: 'completed', pastOnly: true },
      no_show: { from: ['pending', 'confirmed'], to: 'no_show', pastOnly: true },
    });
  });

  // Every status against every action, once for a reservation that has started and once for one that has not.
  // '-' is "refused as stale" (409 stale_status), 'not started' is the 409 for completing a future booking.
  const now = at('2026-05-10T12:00:00');
  const past = at('2026-05-10T11:30:00');
  const future = at('2026-05-10T12:30:00');
  const outcome = (action: StaffAction, status: ReservationStatus, start: Date) => {
    const result = decideTransition(TRANSITIONS[action], { status, start_time: start }, now);
    return 'to' in result ? result.to : result.refused === 'not_started' ? 'not started' : '-';
  };
  const table = (start: Date) =>
    Object.fromEntries(
      RESERVATION_STATUSES.map((status) => [status, ACTIONS.map((action) => outcome(action, status, start))]),
    );

  it('for a reservation that has already started', () => {
    expect(table(past)).toEqual({
      //           confirm      cancel       complete     no_show
      pending: ['confirmed', 'cancelled', 'completed', 'no_show'],
      confirmed: ['-', 'cancelled', 'completed', 'no_show'],
      cancelled: ['-', '-', '-', '-'],
      completed: ['-', '-', '-', '-'],
      no_show: ['-', '-', '-', '-'],
    });
  });

  it('for a reservation still to come: no completed or no-show yet', () => {
    expect(table(future)).toEqual({
      pending: ['confirmed', 'cancelled', 'not started', 'not started'],
      confirmed: ['-', 'cancelled', 'not started', 'not started'],
      cancelled: ['-', '-', '-', '-'],
      completed: ['-', '-', '-', '-'],
      no_show: ['-', '-', '-', '-'],
    });
  });

  it('counts a reservation starting this very instant as not started', () => {
    expect(outcome('complete', 'confirmed', now)).toBe('not started');
    expect(outcome('no_show', 'pending', now)).toBe('not started');
    expect(outcome('complete', 'confirmed', new Date(now.getTime() - 1))).toBe('completed');
  });

  it('says "stale" rather than "not started" when the status has already moved on', () => {
    expect(outcome('complete', 'cancelled', future)).toBe('-');
  });
});

describe('cancellation deadline', () => {
  it('lies the given number of whole days before the start', () => {
    const start = at('2026-05-10T14:00:00');
    expect(local(cancellationDeadline(start, 1))).toBe('2026-05-09T14:00:00');
    expect(local(cancellationDeadline(start, 3))).toBe('2026-05-07T14:00:00');
    expect(cancellationDeadline(start, 2).getTime()).toBe(start.getTime() - 48 * 3_600_000);
  });

  it('with 0 days is the start itself: the customer may cancel until then', () => {
    const start = at('2026-05-10T14:00:00');
    expect(cancellationDeadline(start, 0)).toEqual(start);
    expect(beforeCancellationDeadline(start, 0, at('2026-05-10T13:59:59'))).toBe(true);
    expect(beforeCancellationDeadline(start, 0, start)).toBe(false);
    expect(beforeCancellationDeadline(start, 0, at('2026-05-10T14:30:00'))).toBe(false);
  });

  it('is closed at the deadline itself and open a millisecond before', () => {
    const start = at('2026-05-10T14:00:00');
    const deadline = at('2026-05-09T14:00:00');
    expect(beforeCancellationDeadline(start, 1, new Date(deadline.getTime() - 1))).toBe(true);
    expect(beforeCancellationDeadline(start, 1, deadline)).toBe(false);
    expect(beforeCancellationDeadline(start, 1, new Date(deadline.getTime() + 1))).toBe(false);
  });

  it('crosses the salon-local midnight (and a UTC date that differs from the local one)', () => {
    // 00:30 on the 10th in Tokyo is 15:30 on the 9th in UTC: the deadline one day earlier is 00:30 on the 9th.
    const start = at('2026-05-10T00:30:00');
    expect(start.toISOString()).toBe('2026-05-09T15:30:00.000Z');
    expect(local(cancellationDeadline(start, 1))).toBe('2026-05-09T00:30:00');
    // 23:30 the evening before the deadline day is still in time; 00:30 is not.
    expect(beforeCancellationDeadline(start, 1, at('2026-05-08T23:30:00'))).toBe(true);
    expect(beforeCancellationDeadline(start, 1, at('2026-05-09T00:30:00'))).toBe(false);
    // Across a month end: 09:00 on 1 June (00:00 UTC), two days earlier is 09:00 on 30 May.
    expect(local(cancellationDeadline(at('2026-06-01T09:00:00'), 2))).toBe('2026-05-30T09:00:00');
  });
});
