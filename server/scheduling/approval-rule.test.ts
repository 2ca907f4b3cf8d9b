import { describe, expect, it } from 'vitest';
import { reachesThreshold, ruleHoldsBack } from './approval-rule';

describe('the no-show rule', () => {
  const counts = (no_show_count: number, late_cancel_count: number) => ({ no_show_count, late_cancel_count });

  it('adds no-shows and late cancels and compares with the threshold (null: off)', () => {
    expect(reachesThreshold(counts(2, 0), 2)).toBe(true);
    expect(reachesThreshold(counts(1, 1), 2)).toBe(true);
    expect(reachesThreshold(counts(1, 0), 2)).toBe(false);
    expect(reachesThreshold(counts(9, 9), null)).toBe(false);
  });

  it('holds a booking back only when the salon confirms online bookings at once', () => {
    expect(ruleHoldsBack({ autoConfirm: true, threshold: 2 }, counts(2, 0))).toBe(true);
    expect(ruleHoldsBack({ autoConfirm: false, threshold: 2 }, counts(2, 0))).toBe(false);
    expect(ruleHoldsBack({ autoConfirm: true, threshold: null }, counts(2, 0))).toBe(false);
    expect(ruleHoldsBack({ autoConfirm: true, threshold: 3 }, counts(2, 0))).toBe(false);
  });
});
