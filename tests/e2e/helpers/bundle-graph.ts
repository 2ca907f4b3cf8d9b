import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * The chunk graph of a Vite build, read from the files themselves (the build writes no manifest): the entry is
 * index.html's module script, and a chunk's static imports (`import … from "./x.js"`, `import "./x.js"`) are
 * what the browser fetches before the chunk runs. Dynamic `import("./x.js")` edges are not followed: they load
 * on demand.
 */
export interface BundleGraph {
  assetsDir: string;
  entry: string;
  /** Chunks index.html asks for besides the entry (modulepreload). */
  preloaded: string[];
  files: string[];
  read(file: string): string;
  staticImports(file: string): string[];
  /** `file` and everything it imports statically, transitively. */
  closure(...files: string[]): Set<string>;
  /** The one chunk whose name is `<prefix>-<hash>.js`. */
  chunk(prefix: string): string;
  gzipSize(file: string): number;
  /**
   * What a first visit to /reserve loads before any interaction: the entry with its static imports and preloads,
   * and the customer layout and the /reserve page (the router loads both at once). The service worker is
   * registered with the browser's own API (src/lib/pwa.ts), so no library of its own loads.
   */
  reserveLoad(): Set<string>;
}

export function readBundleGraph(distDir: string): BundleGraph {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const entryMatch = /<script[^>]+type="module"[^>]+src="\/assets\/([^"]+\.js)"/.exec(html);
  if (!entryMatch) throw new Error('index.html has no module script under /assets/');
  const preloaded = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/assets\/([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const assetsDir = path.join(distDir, 'assets');
  const files = fs.readdirSync(assetsDir).filter((name) => name.endsWith('.js'));
  const cache = new Map<string, string>();
  const read = (file: string) => {
    let text = cache.get(file);
    if (text === undefined) {
      text = fs.readFileSync(path.join(assetsDir, file), 'utf8');
      cache.set(file, text);
    }
    return text;
  };
  const staticImports = (file: string) =>
    [...read(file).matchAll(/\b(?:import|from)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]!);
  const closure = (...roots: string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const dep of staticImports(file)) visit(dep);
    };
    roots.forEach(visit);
    return seen;
  };
  const chunk = (prefix: string) => {
    // Rollup/Rolldown name a chunk after its module, plus an 8-character hash.
    const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[\\w-]{8}\\.js$`);
    const found = files.filter((name) => pattern.test(name));
    if (found.length !== 1)
      throw new Error(`expected one chunk ${prefix}-<hash>.js, found: ${found.join(', ') || 'none'}`);
    return found[0]!;
  };
  const gzipSize = (file: string) => zlib.gzipSync(read(file), { level: 9 }).length;
  const reserveLoad = () => closure(entryMatch[1]!, ...preloaded, chunk('customer-layout'), chunk('reserve-page'));
  return {
    assetsDir,
    entry: entryMatch[1]!,
    preloaded,
    files,
    read,
    staticImports,
    closure,
    chunk,
    gzipSize,
    reserveLoad,
  };
}

/** React's development build names its DevTools download page; the production build does not. */
export function isDevelopmentBuild(graph: BundleGraph): boolean {
  return [...graph.closure(graph.entry)].some((file) => graph.read(file).includes('react.dev/link/react-devtools'));
}
