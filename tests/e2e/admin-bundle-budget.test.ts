import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundleGraph, type BundleGraph } from './helpers/bundle-graph';

/**
 * Issue 6: the admin entry ships at most 250 KB of gzipped JavaScript before the first screen. The first screen
 * is the login (signed out) or the reservation list (/admin, signed in): the app entry with its static imports,
 * the service-worker registration, the lazy admin module, and for the list its page chunk. Every other screen
 * (and recharts, for statistics only) loads later. Runs over the build `npm test` makes (DIST_DIR elsewhere).
 */
const BUDGET_BYTES = 250 * 1024;
const distDir = process.env.DIST_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'dist');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('admin bundle budget (dist/)', () => {
  let graph: BundleGraph;
  let base: string[];

  beforeAll(() => {
    if (!fs.existsSync(path.join(distDir, 'index.html'))) {
      throw new Error(`${distDir}/index.html is missing: run \`npx vite build\` first (npm test does).`);
    }
    graph = readBundleGraph(distDir);
    base = [graph.entry, ...graph.preloaded, graph.chunk('admin-entry')];
  });

  const total = (files: Set<string>) => [...files].reduce((sum, file) => sum + graph.gzipSize(file), 0);

  function report(label: string, files: Set<string>) {
    const sizes = [...files].map((file) => ({ file, gzip: graph.gzipSize(file) })).sort((a, b) => b.gzip - a.gzip);
    console.log(
      [
        `${label}, gzipped: ${kb(total(files))} of ${kb(BUDGET_BYTES)}`,
        ...sizes.slice(0, 12).map(({ file, gzip }) => `  ${kb(gzip).padStart(9)}  ${file}`),
      ].join('\n'),
    );
  }

  it('loads the admin area lazily: none of it is in the entry', () => {
    const admin = graph.chunk('admin-entry');
    const entryClosure = graph.closure(graph.entry);
    expect(entryClosure.has(admin)).toBe(false);
    expect([...entryClosure].map((file) => graph.read(file)).join('\n')).toContain(admin);
  });

  it('ships at most 250 KB gzipped before the login screen', () => {
    const files = graph.closure(...base);
    report('/admin signed out (login)', files);
    expect(total(files)).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('ships at most 250 KB gzipped before the reservation list, the first screen after login', () => {
    const files = graph.closure(...base, graph.chunk('reservation-list-page'));
    report('/admin signed in (reservation list)', files);
    expect(total(files)).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('keeps recharts and the other screens out of the first screen', () => {
    const files = graph.closure(...base, graph.chunk('reservation-list-page'));
    for (const page of [
      'statistics-page',
      'statistics-charts',
      'menu-page',
      'schedule-page',
      'settings-page',
      'staff-booking-dialog',
    ]) {
      const chunk = graph.chunk(page);
      expect(files.has(chunk), `${chunk} is loaded before the first screen`).toBe(false);
    }
    for (const file of files) expect(graph.read(file), `${file} contains recharts`).not.toMatch(/recharts/);
  });
});
