import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';

/**
 * With CI=true nothing may be skipped: a run in which any test was skipped or left as a todo fails, naming them.
 * Lint already refuses it.skip, skipIf and todo in the source (eslint.config.js); this catches what lint cannot
 * see (a ctx.skip() at run time, a skip that came in through a helper) and keeps a green CI meaning that every test
 * ran. Off CI a skip only shows in vitest's summary, so that `-t` and `.only` still work while writing a test.
 */
export class NoSkippedTests implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    if (process.env.CI !== 'true' || reason === 'interrupted') return;
    const skipped: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        if (test.result().state === 'skipped') skipped.push(`${testModule.moduleId} > ${test.fullName}`);
      }
    }
    if (skipped.length === 0) return;
    const log = this.vitest?.logger.error.bind(this.vitest.logger) ?? console.error;
    log(`\nCI=true: nothing may be skipped, and ${skipped.length} test(s) were:\n  ${skipped.join('\n  ')}\n`);
    process.exitCode = 1;
  }
}
