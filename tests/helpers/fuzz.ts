/**
 * How many random cases a property test runs per endpoint or route. `npm test` keeps the suite's own small
 * counts, chosen so that the whole suite stays within a few minutes (issue 17); `TEST_FUZZ_RUNS=<n>` runs n
 * each instead, for a long search before a release or after touching validation, e.g.
 * `TEST_FUZZ_RUNS=2000 npm test -- --project integration-postgres`.
 */
export function fuzzRuns(suiteDefault: number): number {
  const asked = process.env.TEST_FUZZ_RUNS;
  if (!asked) return suiteDefault;
  const runs = Number(asked);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`TEST_FUZZ_RUNS must be a whole number above 0, not ${asked}`);
  return runs;
}
