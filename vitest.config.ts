import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One run, five projects. `npm test` (scripts/test.mjs) provides TEST_POSTGRES_URL and a built app.
const integration = (engine: 'pglite' | 'postgres') => ({
  test: {
    name: `integration-${engine}`,
    include: ['tests/integration/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: engine },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/shared/**/*.test.ts', 'server/**/*.test.ts', 'bench/**/*.test.ts'],
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
          fileParallelism: false,
        },
      },
    ],
  },
});
