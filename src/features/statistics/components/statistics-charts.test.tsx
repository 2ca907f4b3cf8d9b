import { describe, expect, it } from 'vitest';
import { monthTickLabels } from './statistics-charts';

describe('monthly sales axis labels', () => {
  it('shows the year on the first month and wherever the year changes', () => {
    const labels = ['2025年11月', '2025年12月', '2026年01月', '2026年02月'];
    expect(labels.map((label) => monthTickLabels(labels).get(label))).toEqual([
      '2025年11月',
      '12月',
      '2026年1月',
      '2月',
    ]);
  });

  it('keeps one year for a span inside it, and leaves a label it does not know as it is', () => {
    const labels = ['2025年05月', '2025年06月', '合計'];
    expect(labels.map((label) => monthTickLabels(labels).get(label))).toEqual(['2025年5月', '6月', '合計']);
  });
});
