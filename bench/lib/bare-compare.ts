/**
 * The bare server must answer what the app answers, or its rate is not the limit of the same work: a few requests of
 * each endpoint both answer are asked of both in every run, and any difference in status, X-Total-Count or JSON
 * (compared parsed: the order of an object's keys does not matter) stops the benchmark.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ReadEndpoint } from './scenarios';

export interface Answer {
  path: string;
  status: number;
  total: string | null;
  body: unknown;
}

/** The first paths of each endpoint's mix: what the load sends first. */
export function samplePaths(endpoints: ReadEndpoint[], perEndpoint = 4): string[] {
  return endpoints.flatMap((endpoint) => endpoint.paths.slice(0, perEndpoint));
}

export async function askAll(url: string, paths: string[], headers: Record<string, string>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const path of paths) {
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the comparison shows it.
    }
    answers.push({ path, status: response.status, total: response.headers.get('x-total-count'), body });
  }
  return answers;
}

/** Where two JSON values first differ (`$[3].updated_at`), or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, at = '$'): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: ${a.length} items against ${b.length}`;
    for (let i = 0; i < a.length; i += 1) {
      const found = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (found) return found;
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${at}.${key}`,
      );
      if (found) return found;
    }
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 200)} against ${JSON.stringify(b)?.slice(0, 200)}`;
}

/** Throws, naming each request whose answers differ, app first. */
export function assertSameAnswers(app: Answer[], bare: Answer[]): void {
  const problems: string[] = [];
  for (const [i, mine] of app.entries()) {
    const theirs = bare[i];
    if (!theirs || theirs.path !== mine.path) throw new Error(`bare answers do not match the app's requests`);
    if (mine.status !== 200) problems.push(`${mine.path}: the app answered ${mine.status}`);
    else if (theirs.status !== mine.status)
      problems.push(`${mine.path}: status ${mine.status} against ${theirs.status}`);
    else if (theirs.total !== mine.total)
      problems.push(`${mine.path}: X-Total-Count ${mine.total} against ${theirs.total}`);
    else {
      const difference = firstDifference(mine.body, theirs.body);
      if (difference) problems.push(`${mine.path}: ${difference}`);
    }
  }
  if (problems.length > 0)
    throw new Error(`the bare server does not answer what the app answers (app first):\n${problems.join('\n')}`);
}
