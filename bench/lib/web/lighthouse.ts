/**
 * Lighthouse 12 (its default: the mobile preset, simulated slow 4G and CPU slowdown) on one page, through its
 * own CLI with Debian's Chromium, headless (and without the sandbox, which Chromium refuses as root).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..', '..', '..');
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
  tti: 'interactive',
} as const;

export interface PageAudit {
  path: string;
  /** The URL after redirects (an unauthenticated /reserve may land on /login). */
  finalUrl: string;
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  /** Milliseconds, except cls (unitless). */
  metrics: Record<keyof typeof METRICS, number | null>;
  /** Accessibility and best-practice audits that failed, by id. */
  failed: string[];
  /** Lighthouse's largest estimated savings (e.g. uses-text-compression), in milliseconds of load time. */
  opportunities: { id: string; savingsMs: number }[];
  lighthouseVersion: string;
}

interface Lhr {
  lighthouseVersion: string;
  finalDisplayedUrl?: string;
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    {
      score: number | null;
      numericValue?: number;
      scoreDisplayMode?: string;
      details?: { type?: string; overallSavingsMs?: number };
    }
  >;
}

/** Where auditPage leaves Lighthouse's full report (the JSON DevTools' Lighthouse panel opens) for a page. */
export function reportFile(workDir: string, pagePath: string): string {
  return path.join(workDir, `lighthouse-${pagePath.replace(/\W+/g, '_')}.json`);
}

export async function auditPage(baseUrl: string, pagePath: string, workDir: string): Promise<PageAudit> {
  const output = reportFile(workDir, pagePath);
  const args = [
    path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js'),
    `${baseUrl}${pagePath}`,
    '--output=json',
    `--output-path=${output}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
    '--quiet',
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`lighthouse ${pagePath} exited with ${code}`)),
    );
  });
  const lhr = JSON.parse(fs.readFileSync(output, 'utf8')) as Lhr;
  const score = (id: string) => lhr.categories[id]?.score ?? null;
  const failed = ['accessibility', 'best-practices']
    .flatMap((category) => lhr.categories[category]?.auditRefs ?? [])
    .map((ref) => ref.id)
    .filter((id) => {
      const audit = lhr.audits[id];
      return audit && audit.scoreDisplayMode === 'binary' && audit.score === 0;
    });
  return {
    path: pagePath,
    finalUrl: lhr.finalDisplayedUrl ?? '',
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as PageAudit['scores'],
    metrics: Object.fromEntries(
      Object.entries(METRICS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? null]),
    ) as PageAudit['metrics'],
    failed,
    opportunities: Object.entries(lhr.audits)
      .filter(([, audit]) => audit.details?.type === 'opportunity' && (audit.details.overallSavingsMs ?? 0) > 0)
      .map(([id, audit]) => ({ id, savingsMs: Math.round(audit.details!.overallSavingsMs!) }))
      .sort((a, b) => b.savingsMs - a.savingsMs)
      .slice(0, 4),
    lighthouseVersion: lhr.lighthouseVersion,
  };
}
