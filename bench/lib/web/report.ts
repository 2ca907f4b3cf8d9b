/** The browser part of bench/results.md: build sizes per entry and the Lighthouse scores. */
import type { WebResults } from '../results';
import { int, machineLine } from '../report';
import { formatSpread, summarizeAudits } from './summary';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

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
    const runs = web.runs ?? 1;
    lines.push(
      '',
      `Lighthouse ${web.pages[0]!.lighthouseVersion}, mobile preset (simulated slow 4G, 4× CPU slowdown), headless Chromium, demo data; ` +
        (runs > 1
          ? `${runs} runs per page: the median, and the lowest–highest in brackets; the target is judged on the medians:`
          : 'one run per page:'),
      '',
      '| Page (landed on) | Performance | Accessibility | Best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | Speed index ms | TTI ms | Target met (perf ≥ 95, a11y 100) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const p of summarizeAudits(web.pages)) {
      const m = p.metrics;
      lines.push(
        `| ${p.path}${p.landed !== p.path ? ` (${p.landed})` : ''} | ${formatSpread(p.scores.performance)} | ${formatSpread(p.scores.accessibility)} | ` +
          `${formatSpread(p.scores['best-practices'])} | ${formatSpread(p.scores.seo)} | ${formatSpread(m.fcp)} | ${formatSpread(m.lcp)} | ` +
          `${formatSpread(m.tbt)} | ${formatSpread(m.cls, 3)} | ${formatSpread(m.si)} | ${formatSpread(m.tti)} | ${p.met ? 'yes' : 'no'} |`,
      );
    }
    lines.push('', "Lighthouse's largest estimated savings per page (its first run):", '');
    for (const p of web.pages.filter((page, i) => web.pages.findIndex((other) => other.path === page.path) === i)) {
      const list = (p.opportunities ?? []).map((o) => `${o.id} ${int(o.savingsMs)} ms`).join(', ');
      lines.push(`- ${p.path}: ${list || 'none'}`);
    }
    const failing = web.pages.filter(
      (p, i) =>
        p.failed.length > 0 && web.pages.findIndex((other) => other.path === p.path && other.failed.length > 0) === i,
    );
    if (failing.length > 0) {
      lines.push('', 'Failed accessibility / best-practice audits:', '');
      for (const p of failing) lines.push(`- ${p.path}: ${p.failed.join(', ')}`);
    }
  }
  lines.push('');
  return lines;
}
