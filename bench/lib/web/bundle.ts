/**
 * Build sizes per entry, gzipped: what a first visit downloads. The chunk graph comes from Vite's manifest
 * (dist/.vite/manifest.json, written by `vite build --manifest`) when there is one, else from the built files
 * themselves (index.html's module script and preloads, and each chunk's static `import … from "./x.js"`).
 * Dynamic imports are not followed: they load on demand.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface EntrySize {
  name: string;
  /** JavaScript and CSS a first visit downloads, gzipped (the app entry included). */
  jsGzip: number;
  cssGzip: number;
  /** What it adds over what was loaded before it (null for the app entry itself). */
  addedJsGzip: number | null;
  files: number;
  /** Why it could not be measured (a chunk missing from this build). */
  missing?: string;
}

export interface BundleReport {
  source: 'manifest' | 'files';
  entries: EntrySize[];
}

interface Graph {
  entry: string;
  preloaded: string[];
  staticImports(file: string): string[];
  css(file: string): string[];
  /** The one JS chunk named `<prefix>-<hash>.js`, or undefined. */
  chunk(prefix: string): string | undefined;
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

function manifestGraph(distDir: string): Graph | null {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return null;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) return null;
  return {
    entry: entry.file,
    preloaded: [],
    staticImports: (f) => (byFile.get(f)?.imports ?? []).map((key) => manifest[key]!.file),
    css: (f) => byFile.get(f)?.css ?? [],
    chunk: (prefix) => [...byFile.keys()].find((f) => chunkPattern(prefix).test(path.basename(f))),
  };
}

const chunkPattern = (prefix: string) =>
  new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[\\w-]{8}\\.js$`);

function fileGraph(distDir: string): Graph {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const entry = /<script[^>]+type="module"[^>]+src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${distDir}/index.html has no module script under /assets/`);
  const preloaded = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/(assets\/[^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const entryCss = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/(assets\/[^"]+\.css)"/g)].map(
    (m) => m[1]!,
  );
  const assets = fs.readdirSync(path.join(distDir, 'assets'));
  const read = (f: string) => fs.readFileSync(path.join(distDir, f), 'utf8');
  return {
    entry,
    preloaded,
    staticImports: (f) =>
      [...read(f).matchAll(/\b(?:import|from)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => `assets/${m[1]}`),
    // Vite names a chunk's own stylesheet after the chunk; the entry's are linked from index.html.
    css: (f) =>
      f === entry
        ? entryCss
        : assets.filter((a) => a === path.basename(f).replace(/\.js$/, '.css')).map((a) => `assets/${a}`),
    chunk: (prefix) => assets.filter((a) => chunkPattern(prefix).test(a)).map((a) => `assets/${a}`)[0],
  };
}

function closure(graph: Graph, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    graph.staticImports(file).forEach(visit);
  };
  roots.forEach(visit);
  return seen;
}

export function measureBundles(distDir: string): BundleReport {
  const fromManifest = manifestGraph(distDir);
  const graph = fromManifest ?? fileGraph(distDir);
  const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gzip(file), 0);
  // The service-worker registration (workbox-window) is imported right after start on every page.
  const workbox = graph.chunk('workbox-window.prod.es5');
  const base = closure(graph, [graph.entry, ...graph.preloaded, ...(workbox ? [workbox] : [])]);

  /** `prefixes` loaded on top of the app entry; "added" is what is not already loaded by the entry and `after`. */
  const measure = (name: string, prefixes: string[], after: string[] = []): EntrySize => {
    const files = [...prefixes, ...after].map((prefix) => [prefix, graph.chunk(prefix)] as const);
    const missing = files.filter(([, file]) => !file).map(([prefix]) => prefix);
    if (missing.length > 0)
      return {
        name,
        jsGzip: 0,
        cssGzip: 0,
        addedJsGzip: null,
        files: 0,
        missing: `no ${missing.join(', ')} chunk in this build`,
      };
    const chunkOf = (prefix: string) => files.find(([p]) => p === prefix)![1]!;
    const before = closure(graph, [...base, ...after.map(chunkOf)]);
    const all = closure(graph, [...before, ...prefixes.map(chunkOf)]);
    const css = new Set([...all].flatMap((file) => graph.css(file)));
    return {
      name,
      jsGzip: sum(all),
      cssGzip: sum(css),
      addedJsGzip: sum([...all].filter((file) => !before.has(file))),
      files: all.size,
    };
  };

  const entryCss = new Set([...base].flatMap((file) => graph.css(file)));
  return {
    source: fromManifest ? 'manifest' : 'files',
    entries: [
      {
        name: 'app entry (every page)',
        jsGzip: sum(base),
        cssGzip: sum(entryCss),
        addedJsGzip: null,
        files: base.size,
      },
      measure('customer entry (/reserve: layout + page)', ['customer-layout', 'reserve-page']),
      measure('admin entry (/admin)', ['admin-entry']),
      measure('statistics page (/admin/statistics, over the admin entry)', ['statistics-page'], ['admin-entry']),
      measure(
        'statistics charts (recharts, over the statistics page)',
        ['statistics-charts'],
        ['admin-entry', 'statistics-page'],
      ),
    ],
  };
}
