import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isDevelopmentBuild, readBundleGraph, type BundleGraph } from './helpers/bundle-graph';

/**
 * Issue 5: the customer entry (/reserve and what it loads before the first interaction) ships at most 160 KB of
 * gzipped JavaScript, and none of it is Dexie, recharts or admin code. Runs over the build `npm test` makes
 * (`npx vite build`; DIST_DIR points elsewhere).
 */
const BUDGET_BYTES = 160 * 1024;
const distDir = process.env.DIST_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'dist');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('customer bundle budget (dist/)', () => {
  let graph: BundleGraph;
  let reserveSet: Set<string>;

  beforeAll(() => {
    if (!fs.existsSync(path.join(distDir, 'index.html'))) {
      throw new Error(`${distDir}/index.html is missing: run \`npx vite build\` first (npm test does).`);
    }
    graph = readBundleGraph(distDir);
    reserveSet = graph.reserveLoad();
  });

  it('is a production build', () => {
    // A build run with NODE_ENV=test (e.g. started from inside vitest) ships development React, ~60 KB more.
    expect(isDevelopmentBuild(graph), 'dist/ holds a development build: rebuild with `npx vite build`').toBe(false);
  });

  it('loads the customer layout and the /reserve page lazily from the entry', () => {
    const entryText = [...graph.closure(graph.entry)].map((file) => graph.read(file)).join('\n');
    for (const prefix of ['customer-layout', 'reserve-page']) {
      const chunk = graph.chunk(prefix);
      expect(entryText, `${chunk} is referenced by the entry`).toContain(chunk);
      expect(graph.closure(graph.entry).has(chunk), `${chunk} is not part of the entry itself`).toBe(false);
    }
  });

  it('ships at most 160 KB gzipped for /reserve', () => {
    const sizes = [...reserveSet].map((file) => ({ file, gzip: graph.gzipSize(file) })).sort((a, b) => b.gzip - a.gzip);
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const entryTotal = [...graph.closure(graph.entry)].reduce((sum, file) => sum + graph.gzipSize(file), 0);
    console.log(
      [
        `/reserve JavaScript, gzipped: ${kb(total)} of ${kb(BUDGET_BYTES)} (entry and its static imports: ${kb(entryTotal)})`,
        ...sizes.map(({ file, gzip }) => `  ${kb(gzip).padStart(9)}  ${file}`),
      ].join('\n'),
    );
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('holds no Dexie, recharts or admin code', () => {
    const entryClosure = graph.closure(graph.entry);
    expect(reserveSet.has(graph.chunk('admin-entry'))).toBe(false);
    for (const file of reserveSet) {
      const text = graph.read(file);
      expect(text, `${file} contains Dexie`).not.toMatch(/\bDexie\b|dexie/);
      expect(text, `${file} contains recharts`).not.toMatch(/recharts/);
      // Staff screens call /api/admin/; the entry's API client only names the prefix to pick the token.
      if (!entryClosure.has(file)) expect(text, `${file} calls the admin API`).not.toContain('/api/admin/');
    }
  });
});
