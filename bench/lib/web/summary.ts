/**
 * Lighthouse's simulated throttling moves one page's score by several points from run to run on a shared machine, so
 * `npm run bench:web -- --runs N` audits each page N times and judges the median; the range shows the spread.
 */
import { CATEGORIES, METRICS, type PageAudit } from './lighthouse';

export type Category = (typeof CATEGORIES)[number];
export type Metric = keyof typeof METRICS;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface PageSummary {
  path: string;
  /** Where the runs landed (an unauthenticated /reserve lands on /login). */
  landed: string;
  runs: number;
  /** Scores 0–100; null when no run had the category. */
  scores: Record<Category, Spread | null>;
  /** Milliseconds, except cls. */
  metrics: Record<Metric, Spread | null>;
  /** Performance ≥ 95 and accessibility 100, on the medians. */
  met: boolean;
}

export const PERFORMANCE_GOAL = 95;

/** The middle value; of an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function spread(values: readonly (number | null)[]): Spread | null {
  const present = values.filter((value): value is number => value !== null);
  if (present.length === 0) return null;
  return { median: median(present), min: Math.min(...present), max: Math.max(...present) };
}

/** Per page, in the order the pages were first audited. */
export function summarizeAudits(audits: readonly PageAudit[]): PageSummary[] {
  const paths = [...new Set(audits.map((audit) => audit.path))];
  return paths.map((path) => {
    const runs = audits.filter((audit) => audit.path === path);
    const scores = Object.fromEntries(
      CATEGORIES.map((category) => [
        category,
        spread(runs.map((run) => (run.scores[category] === null ? null : Math.round(run.scores[category]! * 100)))),
      ]),
    ) as PageSummary['scores'];
    const metrics = Object.fromEntries(
      (Object.keys(METRICS) as Metric[]).map((metric) => [metric, spread(runs.map((run) => run.metrics[metric]))]),
    ) as PageSummary['metrics'];
    const landed = runs[0]!.finalUrl ? new URL(runs[0]!.finalUrl).pathname : '?';
    const met = (scores.performance?.median ?? 0) >= PERFORMANCE_GOAL && scores.accessibility?.median === 100;
    return { path, landed, runs: runs.length, scores, metrics, met };
  });
}

/** `92 (88–95)`, or the value alone when every run gave it. */
export function formatSpread(value: Spread | null, digits = 0): string {
  if (!value) return '—';
  const show = (n: number) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return value.min === value.max ? show(value.median) : `${show(value.median)} (${show(value.min)}–${show(value.max)})`;
}
