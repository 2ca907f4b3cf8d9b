import { describe, expect, it } from 'vitest';
import {
  beforeCancellationDeadline,
  canStillCancelLocal,
  cancellationDeadline,
  cancellationDeadlineLocal,
} from './cancellation';
import { localDateTimeToInstant } from './time';

describe('the online cancellation deadline', () => {
  it('is the start’s clock time N calendar days earlier, across a month end', () => {
    expect(cancellationDeadlineLocal('2030-03-01T10:00:00', 1)).toBe('2030-02-28T10:00:00');
    expect(cancellationDeadlineLocal('2030-03-01T10:30', 2)).toBe('2030-02-27T10:30:00');
    expect(cancellationDeadlineLocal('2030-03-01T10:00:00', 0)).toBe('2030-03-01T10:00:00');
  });

  it('is closed at the deadline itself, on the wall clock as on the server’s instants', () => {
    const start = '2030-01-11T10:00:00';
    expect(canStillCancelLocal(start, 1, '2030-01-10T09:59:59')).toBe(true);
    expect(canStillCancelLocal(start, 1, '2030-01-10T10:00:00')).toBe(false);
    // A start tomorrow morning with a one-day deadline booked today after that time: already too late.
    expect(canStillCancelLocal(start, 1, '2030-01-10T18:00:00')).toBe(false);

    const instant = (local: string) => localDateTimeToInstant(local, 'Asia/Tokyo');
    expect(cancellationDeadline(instant(start), 1)).toEqual(instant(cancellationDeadlineLocal(start, 1)));
    expect(beforeCancellationDeadline(instant(start), 1, instant('2030-01-10T09:59:59'))).toBe(true);
    expect(beforeCancellationDeadline(instant(start), 1, instant('2030-01-10T10:00:00'))).toBe(false);
  });
});
