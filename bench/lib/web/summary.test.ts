import { describe, expect, it } from 'vitest';
import type { PageAudit } from './lighthouse';
import { formatSpread, median, summarizeAudits } from './summary';

const audit = (path: string, performance: number, accessibility = 1, tbt: number | null = 100) =>
  ({
    path,
    finalUrl: `http://127.0.0.1:1${path}`,
    scores: { performance, accessibility, 'best-practices': 1, seo: 1 },
    metrics: { fcp: 1000, lcp: 2000, tbt, cls: 0.001, si: 1000, tti: 2500 },
  }) as PageAudit;

describe('bench:web over several runs (--runs N)', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([92, 80, 97])).toBe(92);
    expect(median([90, 100, 94, 96])).toBe(95);
  });

  it('judges each page on its median, and shows the range beside it', () => {
    const pages = summarizeAudits([
      audit('/login', 0.97),
      audit('/admin', 0.8),
      audit('/login', 0.88),
      audit('/admin', 0.99),
      audit('/login', 0.96),
      audit('/admin', 0.94, 1, null),
    ]);
    expect(pages.map((page) => [page.path, page.runs, page.scores.performance, page.met])).toEqual([
      ['/login', 3, { median: 96, min: 88, max: 97 }, true],
      ['/admin', 3, { median: 94, min: 80, max: 99 }, false],
    ]);
    expect(formatSpread(pages[0]!.scores.performance)).toBe('96 (88–97)');
    expect(formatSpread(pages[0]!.scores.seo)).toBe('100');
    // A metric a run could not measure is left out of that page's median.
    expect(pages[1]!.metrics.tbt).toEqual({ median: 100, min: 100, max: 100 });
  });

  it('misses on a median accessibility under 100 whatever the performance', () => {
    const [page] = summarizeAudits([audit('/reserve', 1, 0.98), audit('/reserve', 1, 1), audit('/reserve', 1, 0.98)]);
    expect(page!.met).toBe(false);
  });
});
