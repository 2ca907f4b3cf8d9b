/** The browser part of bench/results.md: build sizes per entry and the Lighthouse scores. */
import type { WebResults } from '../results';
import { int, machineLine } from '../report';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const score = (value: number | null) => (value === null ? '—' : String(Math.round(value * 100)));
const msOrDash = (value: number | null) => (value === null ? '—' : int(value));

export function webSection(web: WebResults): string[] {
  const lines = [
    '## Browser (`npm run bench:web`)',
    '',
    machineLine(web.machine),
    '',
    `Build of ${web.builtAt.slice(0, 16).replace('T', ' ')} UTC; chunk graph read from ${web.bundles.source === 'manifest' ? "Vite's manifest" : 'the built files (no manifest in dist/)'}. ` +
      'Sizes are gzip -9 of everything a first visit downloads, the app entry included; "added" is what the entry brings on top of what was already loaded.',
    '',
    '| Entry | JS gzipped | CSS gzipped | added JS | files |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const e of web.bundles.entries) {
    lines.push(
      e.missing
        ? `| ${e.name} | ${e.missing} | | | |`
        : `| ${e.name} | ${kb(e.jsGzip)} | ${kb(e.cssGzip)} | ${e.addedJsGzip === null ? '—' : kb(e.addedJsGzip)} | ${e.files} |`,
    );
  }
  if (web.pages.length > 0) {
    lines.push(
      '',
      `Lighthouse ${web.pages[0]!.lighthouseVersion}, mobile preset (simulated slow 4G, 4× CPU slowdown), headless Chromium, demo data:`,
      '',
      '| Page (landed on) | Performance | Accessibility | Best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | Speed index ms | TTI ms | Target met (perf ≥ 95, a11y 100) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const p of web.pages) {
      const met = (p.scores.performance ?? 0) >= 0.95 && p.scores.accessibility === 1;
      const landed = p.finalUrl ? new URL(p.finalUrl).pathname : '?';
      lines.push(
        `| ${p.path}${landed !== p.path ? ` (${landed})` : ''} | ${score(p.scores.performance)} | ${score(p.scores.accessibility)} | ${score(p.scores['best-practices'])} | ${score(p.scores.seo)} | ` +
          `${msOrDash(p.metrics.fcp)} | ${msOrDash(p.metrics.lcp)} | ${msOrDash(p.metrics.tbt)} | ${p.metrics.cls === null ? '—' : p.metrics.cls.toFixed(3)} | ${msOrDash(p.metrics.si)} | ${msOrDash(p.metrics.tti)} | ${met ? 'yes' : 'no'} |`,
      );
    }
    lines.push('', "Lighthouse's largest estimated savings per page:", '');
    for (const p of web.pages) {
      const list = (p.opportunities ?? []).map((o) => `${o.id} ${int(o.savingsMs)} ms`).join(', ');
      lines.push(`- ${p.path}: ${list || 'none'}`);
    }
    const failing = web.pages.filter((p) => p.failed.length > 0);
    if (failing.length > 0) {
      lines.push('', 'Failed accessibility / best-practice audits:', '');
      for (const p of failing) lines.push(`- ${p.path}: ${p.failed.join(', ')}`);
    }
  }
  lines.push('');
  return lines;
}
