import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import vitest from '@vitest/eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import commentCitationsPlugin from './scripts/lint/comment-citations.mjs';

const root = import.meta.dirname;

/**
 * "Features never import each other" (docs/architecture.md#layout-and-boundaries): one zone per feature folder that forbids the sibling
 * folders. The folders are read at every run, so a new feature is covered without editing this file.
 */
function featureZones(featuresDir) {
  const dir = path.join(root, featuresDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      target: `./${featuresDir}/${name}`,
      from: `./${featuresDir}`,
      except: [`./${name}`],
      message: `Features never import each other (docs/architecture.md#layout-and-boundaries): move what ${name} needs to a shared module.`,
    }));
}

/** src/lib and src/components below the features and the app shell (their tests may load the app's registrations). */
const sharedUiZone = {
  target: ['./src/lib', './src/components'],
  from: ['./src/features', './src/app'],
  message:
    'src/lib and src/components serve every feature and the app shell: they import neither (docs/architecture.md#layout-and-boundaries); move what both need into src/lib.',
};

/** The layering of docs/architecture.md#layout-and-boundaries. Paths are relative to this file. */
const boundaryZones = [
  {
    target: './src',
    from: './server',
    message:
      'The browser app never imports server code (docs/architecture.md#layout-and-boundaries); shared code belongs in src/shared.',
  },
  {
    target: './server',
    from: './src',
    except: ['./shared'],
    message: 'The server takes only src/shared from the browser tree (docs/architecture.md#layout-and-boundaries).',
  },
  {
    target: './sw',
    from: './src',
    except: ['./shared'],
    message:
      'The service worker takes only src/shared from the browser tree (docs/architecture.md#layout-and-boundaries).',
  },
  {
    target: './src/shared',
    from: ['./src/app', './src/features', './src/lib', './src/components', './server', './sw'],
    message:
      'src/shared is used by browser, server and service worker: it imports only itself (docs/architecture.md#layout-and-boundaries).',
  },
  sharedUiZone,
  ...featureZones('src/features'),
  ...featureZones('server/features'),
];

/** src/shared runs everywhere: no UI framework, no DOM library, no Node, no server framework or database. */
const sharedForbiddenPackages = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'react-router',
  'react-router/*',
  '@mantine/*',
  '@tanstack/*',
  'dexie',
  'dexie/*',
  'recharts',
  'workbox-*',
  'fastify',
  'fastify/*',
  'fastify-*',
  '@fastify/*',
  'drizzle-orm',
  'drizzle-orm/*',
  'pg',
  '@electric-sql/*',
  'node:*',
];
/**
 * A path that climbs three folders says more about where the importing file sits than about what it imports:
 * use the package.json "imports" aliases (#src/…, #server/…, #tests/…) instead. Every no-restricted-imports
 * rule below takes its options from restrictedImports(): a later config replaces a rule's options whole.
 */
const climbingImports = {
  regex: '^(\\.\\./){3,}',
  message: "Import through an alias ('#src/…', '#server/…', '#tests/…') instead of climbing three folders.",
};
const restrictedImports = ({ paths = [], patterns = [] } = {}) => [
  'error',
  { paths, patterns: [...patterns, climbingImports] },
];

/** An error's text is read by the transport alone (src/lib/api-client.ts); everyone else calls errorDetail. */
const readingErrorBody = {
  selector: "MemberExpression[property.name='detail'][object.type='MemberExpression'][object.property.name='body']",
  message:
    'Turn an error into text with errorDetail(error, fallback) (src/lib/api-client.ts), not by reading its body.',
};
const errorTextSyntax = [
  {
    selector: "BinaryExpression[operator='instanceof'][right.name='ApiError']",
    message:
      'Use isApiError(error, status) / fieldErrorsOf (src/lib/api-errors.ts) or isNotFound, and errorDetail for the text.',
  },
  {
    selector: "CallExpression[callee.property.name='detailOr']",
    message: 'Use errorDetail(error, fallback) (src/lib/api-client.ts): one way from an error to screen text.',
  },
];

// Bare builtin names ('fs', 'crypto', also 'constants') are matched exactly, never as patterns: a pattern
// 'constants' would also match the relative './constants'.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default defineConfig(
  globalIgnores([
    'dist/',
    'dist-server/',
    'dev-dist/',
    'data/',
    'test-results/',
    'coverage/',
    '.tmp/',
    'server/db/migrations/meta/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    name: 'project/all',
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  {
    // Comments cite this repository's documents, and only sections that exist (docs/screens.md for the screens).
    name: 'project/comment-citations',
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { project: commentCitationsPlugin },
    rules: { 'project/comment-citations': ['error', { root }] },
  },

  {
    name: 'project/boundaries',
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': {
        typescript: {
          project: ['tsconfig.json', 'tsconfig.server.json', 'tsconfig.sw.json'],
          noWarnOnMultipleProjects: true,
        },
        node: true,
      },
      // import/no-cycle follows every import it resolves: parsing the packages' type declarations (Mantine's,
      // React's…) on the way made it ~80 % of the run. Cycles through a package cannot happen anyway.
      'import/ignore': ['node_modules'],
    },
    rules: {
      'import/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    // The offline engine's tests run it with the features' registrations (src/app/offline/), as the app does.
    name: 'project/shared-ui-tests',
    files: ['src/lib/**/*.test.{ts,tsx}', 'src/components/**/*.test.{ts,tsx}'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        { basePath: root, zones: boundaryZones.filter((zone) => zone !== sharedUiZone) },
      ],
    },
  },

  {
    name: 'project/import-aliases',
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: { 'no-restricted-imports': restrictedImports() },
  },
  {
    // Modules that import each other cannot be read, tested or loaded on their own (and see undefined values while
    // one of them is still initialising). Type-only imports are not followed: keep shared types in leaf modules
    // anyway (server/outbox/payloads.ts). The rule finds the strongly connected components once per run, so the
    // whole tree costs a few seconds.
    name: 'project/no-cycles',
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'sw/**/*.ts'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },

  {
    // Small modules (docs/architecture.md#layout-and-boundaries): a function that does not fit on a few screens
    // does several things, and a long file hides which of its parts depend on each other. The file limit warns,
    // and `npm run lint` allows no warnings, so both hold in CI.
    name: 'project/size',
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'sw/**/*.ts'],
    ignores: ['**/*.test.*', 'tests/**', 'server/db/migrations/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 150 }],
      'max-lines': ['warn', { max: 300 }],
    },
  },
  {
    // One table per database table, one entry per message: long by nature, and read by search, not scrolling.
    name: 'project/size-exempt',
    files: ['server/db/schema.ts', 'src/shared/messages.ts'],
    rules: { 'max-lines': 'off' },
  },

  {
    // An export nobody imports is dead code that looks alive. Tests, benchmarks and scripts count as importers (a
    // function exported for its unit test is used). The rule lists files through ESLint's old file enumerator, which
    // needs an eslintrc file for what to ignore: .eslintrc.yml holds only that.
    name: 'project/unused-exports',
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'sw/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'import/no-unused-modules': [
        'error',
        {
          unusedExports: true,
          src: ['src', 'server', 'sw', 'tests', 'bench', 'scripts', 'vite.config.ts', 'vitest.config.ts'],
        },
      ],
    },
  },

  {
    // The outbox and the sync know no endpoint (docs/architecture.md#offline-design): the features declare their
    // queueable changes (src/lib/outbox-changes.ts) and what the sync pulls (src/lib/sync-pulls.ts).
    name: 'project/offline-knows-no-endpoint',
    files: ['src/lib/outbox*.{ts,tsx}', 'src/lib/sync*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/\\/api\\//]',
          message:
            'The outbox and the sync name no API path: declare it in the feature (offline.ts, offline-changes.ts).',
        },
        {
          selector: 'TemplateElement[value.raw=/\\/api\\//]',
          message:
            'The outbox and the sync name no API path: declare it in the feature (offline.ts, offline-changes.ts).',
        },
      ],
    },
  },

  {
    name: 'project/browser',
    files: ['src/**/*.{ts,tsx}', 'tests/setup/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    name: 'project/react-hooks',
    files: ['src/**/*.{ts,tsx}', 'tests/setup/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    name: 'project/browser-bundle',
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrictedImports({
        paths: [
          {
            name: '@mantine/notifications',
            allowTypeImports: true,
            message: 'Use showNotification/loadNotifications from src/lib/notify.ts: the package is loaded on demand.',
          },
        ],
      }),
    },
  },
  {
    // One way from a failed call to screen text: errorDetail (src/lib/api-client.ts), the server's message or the
    // screen's fallback. Screens ask which failure it was with isApiError(e, status) / isNotFound (src/lib).
    name: 'project/error-text',
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/**'],
    rules: { 'no-restricted-syntax': ['error', readingErrorBody, ...errorTextSyntax] },
  },
  {
    name: 'project/error-text-lib',
    files: ['src/lib/**/*.{ts,tsx}'],
    // The transport (api-client and the api-error it re-exports) is where an answer's body becomes text.
    ignores: ['src/lib/api-client*.{ts,tsx}', 'src/lib/api-error.ts'],
    rules: { 'no-restricted-syntax': ['error', readingErrorBody] },
  },
  {
    name: 'project/shared',
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictedImports({
        paths: nodeBuiltins.map((name) => ({
          name,
          message:
            'src/shared runs in the browser and the service worker too: no Node builtins (docs/architecture.md#layout-and-boundaries).',
        })),
        patterns: [
          {
            group: sharedForbiddenPackages,
            message:
              'src/shared is used by browser, server and service worker: no React, DOM libraries, Node, Fastify or Drizzle (docs/architecture.md#layout-and-boundaries).',
          },
        ],
      }),
    },
  },

  {
    name: 'project/service-worker',
    files: ['sw/**/*.ts'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    name: 'project/node',
    files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs,js}', 'tests/**/*.ts', '*.{js,mjs,ts}'],
    ignores: ['tests/setup/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'project/tests',
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    plugins: { vitest },
    rules: {
      'vitest/no-focused-tests': 'error',
      // A skipped test is a failure nobody sees: fix it or delete it.
      'vitest/no-disabled-tests': 'error',
      // The project's assertion helpers are named expect…/assert… (expectRefused, expectNoAxeViolations...).
      'vitest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect.*', 'expect*', 'assert*'] }],
      // Conditional skips and placeholders are skipped tests too (a skipIf that holds on CI never runs there).
      'no-restricted-properties': [
        'error',
        ...['it', 'test', 'describe'].flatMap((object) =>
          ['skipIf', 'runIf', 'todo'].map((property) => ({
            object,
            property,
            message: 'Skipped tests are not allowed: make the test run everywhere, or delete it.',
          })),
        ),
      ],
    },
  },
  {
    name: 'project/test-setup',
    files: ['tests/setup/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
