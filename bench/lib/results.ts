/** The shape of bench/results.json: the main run and the growth series, each kept until rerun. */
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import type { BookingCheck } from './booking';
import type { Engine } from './databases';
import type { ExplainedQuery } from './explain';
import type { LoadResult } from './load';
import type { Machine } from './machine';
import type { Size } from './options';
import type { ReadKey } from './scenarios';
import type { BundleReport } from './web/bundle';
import type { PageAudit } from './web/lighthouse';

export interface EndpointResult extends LoadResult {
  key: ReadKey;
  /** Requests per second as a share of the bare Fastify server at the same connection count. */
  ratio: number;
}

export interface BookingRun extends LoadResult {
  created: number;
  conflicts: number;
  /** Created bookings per second. */
  bookingsPerSecond: number;
}

export interface DatasetSummary {
  customers: number;
  reservations: number;
  upcoming: number;
  history: number;
  historyPerDay: number;
  staff: number;
  services: number;
  generationSeconds: number;
}

/** The bare limits (bench/bare-server.ts) of the endpoints it answers, loaded as the app's in the same run. */
export interface BareRun {
  reads: EndpointResult[];
  booking: { runs: BookingRun[]; warmup: BookingRun };
}

export interface EngineRun {
  engine: Engine;
  dataset: DatasetSummary;
  hello: LoadResult[];
  reads: EndpointResult[];
  booking: { runs: BookingRun[]; warmup: BookingRun; check: BookingCheck } | null;
  /** Absent in results written before issue 35. */
  bare?: BareRun;
  /** How many sample requests the bare server answered exactly as the app did. */
  comparedAnswers?: number;
  explain: ExplainedQuery[];
}

export interface MainResults {
  machine: Machine;
  size: Size;
  durationSeconds: number;
  logLevel: string;
  engines: EngineRun[];
}

export interface GrowthStep {
  reservations: number;
  hello: LoadResult[];
  reads: EndpointResult[];
  explain: ExplainedQuery[];
}

export interface GrowthResults {
  machine: Machine;
  size: Size;
  durationSeconds: number;
  engines: { engine: Engine; steps: GrowthStep[] }[];
}

export interface WebResults {
  machine: Machine;
  /** When dist/index.html was built: the sizes and audits are of that build. */
  builtAt: string;
  bundles: BundleReport;
  /** Audits per page (`--runs`; absent before it existed: one). */
  runs?: number;
  /** Every audit, each page's runs in order. */
  pages: PageAudit[];
}

export interface ResultsFile {
  main?: MainResults;
  growth?: GrowthResults;
  web?: WebResults;
}

export const RESULTS_JSON = path.resolve(import.meta.dirname, '..', 'results.json');
export const RESULTS_MD = path.resolve(import.meta.dirname, '..', 'results.md');

export function readResults(): ResultsFile {
  if (!fs.existsSync(RESULTS_JSON)) return {};
  return JSON.parse(fs.readFileSync(RESULTS_JSON, 'utf8')) as ResultsFile;
}

export function writeResults(results: ResultsFile): void {
  fs.writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, 2)}\n`);
}

/** bench/results.md, formatted as `npm run format` would leave it (aligned tables). */
export async function writeMarkdown(markdown: string): Promise<void> {
  const options = (await prettier.resolveConfig(RESULTS_MD)) ?? {};
  fs.writeFileSync(RESULTS_MD, await prettier.format(markdown, { ...options, parser: 'markdown' }));
}
