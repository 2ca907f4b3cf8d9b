import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One run, five projects. `npm test` (scripts/test.mjs) provides TEST_POSTGRES_URL and a built app.
const integration = (engine: 'pglite' | 'postgres') => ({
  test: {
    name: `integration-${engine}`,
    include: ['tests/integration/**/*.test.ts'],
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
  },
});

export default defineConfig({
  test: {
    // Two files at a time (vitest's default on two cores is one): integration files wait on the database and on
    // HTTP about half the time. The e2e project runs after them (below).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/shared/**/*.test.ts', 'server/**/*.test.ts', 'bench/**/*.test.ts', 'sw/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'components',
          include: ['src/**/*.test.tsx'],
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
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time: most of a file's time is spent waiting (token lifetimes, timeouts, starts). Each
          // file has its own server processes on free ports, its own DATA_DIR, PostgreSQL databases and Chromium
          // profiles under unique names, and its own fake peers; they share only the read-only dist/ and dist-server/.
          maxWorkers: 2,
          // After every other project: its servers and Chromium need the CPU that integration workers would take
          // (timing-sensitive tests, and the two cores of CI), and it is the slowest group anyway.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
