import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import {
  BaseSequencer,
  type Reporter,
  type TestModule,
  type TestRunEndReason,
  type TestSpecification,
  type Vitest,
} from 'vitest/node';

/**
 * Files that spend most of their time waiting on a real clock (a one-minute access token running out). Started
 * first in their group, their wait overlaps other files' work; started last (vitest runs unknown files largest
 * first, and these are small), the run ended with one of the two e2e workers waiting a minute alone.
 */
const WAITING_FILES = ['tests/e2e/offline-token-expiry.test.ts'];

class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const waits = (file: TestSpecification) => WAITING_FILES.some((name) => file.moduleId.endsWith(name));
    const groupOf = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    // A stable sort: within a group the waiting files come first, every other file keeps vitest's order.
    return (await super.sort(files)).sort((a, b) => groupOf(a) - groupOf(b) || Number(waits(b)) - Number(waits(a)));
  }
}

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

/**
 * Load tests measure how long one request waits while others run (tests/integration/upload-load.test.ts: staff
 * logins under 1 s while 16 image bombs are uploaded). Beside another integration or e2e file on two cores, what
 * they measure is that file's CPU: they run after every other project, each engine's in a group of its own.
 */
const LOAD_TESTS = ['tests/integration/upload-load.test.ts'];

// One run, seven projects. `npm test` (scripts/test.mjs) provides TEST_POSTGRES_URL and a built app.
const integration = (engine: 'pglite' | 'postgres', { load = false } = {}) => ({
  test: {
    name: `${load ? 'load' : 'integration'}-${engine}`,
    include: load ? LOAD_TESTS : ['tests/integration/**/*.test.ts'],
    exclude: load ? configDefaults.exclude : [...configDefaults.exclude, ...LOAD_TESTS],
    environment: 'node',
    // TEST_CHEAP_PASSWORD_HASH: scrypt at N = 2^10 instead of 2^16 (server/features/auth/passwords.ts, test only).
    env: { TEST_DB: engine, TEST_CHEAP_PASSWORD_HASH: 'true' },
    // Migrates once per run into a template that each test database copies (docs/decisions/0014).
    globalSetup: ['tests/helpers/database-template.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file builds its own app and database, so files may share a worker's loaded modules: importing the server
    // anew for every file was about a third of the project's time.
    isolate: false,
    ...(load && { sequence: { groupOrder: engine === 'pglite' ? 2 : 3 } }),
  },
});

export default defineConfig({
  test: {
    // Two files at a time (vitest's default on two cores is one): integration files wait on the database and on
    // HTTP about half the time. The e2e project runs after them (below).
    maxWorkers: 2,
    sequence: { sequencer: WaitingFilesFirst },
    // With CI=true a skipped or todo test fails the run (NoSkippedTests above).
    reporters: ['default', new NoSkippedTests()],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'src/shared/**/*.test.ts',
            'server/**/*.test.ts',
            'bench/**/*.test.ts',
            'sw/**/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'components',
          include: ['src/**/*.test.tsx', 'tests/setup/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['tests/setup/components.ts'],
          css: false,
          // Each test file imports the UI packages afresh (a jsdom per file): bundled once per run into one module
          // each (Vite's dependency optimizer), their import went from 64 to 16 s of the project's time, its length
          // from 198 to ~152 s on two cores. A package whose side import registers on another (dayjs/locale/ja on
          // dayjs) must be listed with it, or it registers on a copy the app does not use.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [
                  '@mantine/core',
                  '@mantine/dates',
                  '@mantine/hooks',
                  '@mantine/notifications',
                  '@tanstack/react-query',
                  'react',
                  'react-dom',
                  'react-router',
                  'dayjs',
                  'dayjs/locale/ja',
                  'dexie',
                  'recharts',
                ],
              },
            },
          },
          // Typed input and wizard steps take 1–4 s in jsdom on a quiet machine; a loaded CI machine took over 5 s.
          testTimeout: 20_000,
        },
      },
      integration('pglite'),
      integration('postgres'),
      integration('pglite', { load: true }),
      integration('postgres', { load: true }),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // The servers these files start inherit it (tests/helpers/server-process.ts), and so hash passwords at
          // N = 2^10 instead of 2^16: each start (its superuser, the demo staff) and each login would otherwise cost
          // 0.2–0.4 s of CPU on two cores. A server refuses it outside NODE_ENV=test (server/env.test.ts).
          env: { TEST_CHEAP_PASSWORD_HASH: 'true' },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each file starts and stops its own servers, browser and peers, and changes no global: files may share a
          // worker's loaded modules (playwright-core, the helpers), as the integration files do. Importing them anew
          // for every file was ~1 s of CPU each (the project alone: import time 33–36 → 6–8 s, 306–314 → 276–282 s).
          isolate: false,
          // Two files at a time: most of a file's time is spent waiting (token lifetimes, timeouts, starts). Each
          // file has its own server processes on free ports, its own DATA_DIR, PostgreSQL databases and Chromium
          // profiles under unique names, and its own fake peers; they share only dist/ and dist-server/ (a start
          // replaces a stale server bundle in one rename).
          maxWorkers: 2,
          // After every other project: its servers and Chromium need the CPU that integration workers would take
          // (timing-sensitive tests, and the two cores of CI), and it is the slowest group anyway.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
