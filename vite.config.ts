import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { themeVariablesCss } from './src/app/theme-variables';

// The web app manifest lives at the repository root (docs/architecture.md#layout-and-boundaries); the plugin writes it to dist/ and links it.
const manifest = JSON.parse(
  fs.readFileSync(new URL('./manifest.webmanifest', import.meta.url), 'utf8'),
) as Partial<ManifestOptions>;

// The API server in development: `npm run dev` (scripts/dev.mjs) starts it beside Vite on PORT, default 8080.
const API_ORIGIN = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

/**
 * Writes .br and .gz siblings of the text files in dist/, which the server sends to browsers that accept them
 * (@fastify/static preCompressed): a phone on a slow line downloads about a quarter of the bytes, at no CPU
 * cost per request. Runs after every other plugin, so the service worker is compressed too.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'salon-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
          const full = path.join(outDir, file);
          if (!/\.(js|css|html|svg|webmanifest|json)$/.test(file) || fs.statSync(full).size < 1024) continue;
          const bytes = fs.readFileSync(full);
          fs.writeFileSync(
            `${full}.br`,
            zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
        }
      },
    },
  };
}

/**
 * Nothing in index.html stands before its inline first screen (docs/decisions/0016-first-screen-before-the-code.md).
 * The app stylesheet Vite links gets media="print", which browsers fetch at once but do not wait for before the
 * first paint; src/main.tsx switches it to all media, and waits for it, before React draws anything (no unstyled
 * flash). A script-free way to do it: the CSP forbids onload handlers.
 * The scripts keep their default priority: lowering it would mostly move Lighthouse's simulated timings, not a phone's.
 */
function firstScreenFirst(): Plugin {
  return {
    name: 'salon-first-screen-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html.replace(
          /<link rel="stylesheet"( crossorigin)? href="(\/assets\/[^"]+\.css)">/g,
          '<link rel="stylesheet"$1 href="$2" media="print" data-app-styles>',
        );
      },
    },
  };
}

/**
 * The theme's CSS variables (src/app/theme-variables.ts), computed here once rather than by MantineProvider at every
 * page load (AppProviders turns its own off). A higher specificity than @mantine/core/styles.css's `:root` rules, so
 * they win wherever Vite puts the stylesheet; inline, so they are there before the code (the CSP allows inline
 * styles). `vite dev` computes them at its start: restart it after changing the theme.
 */
function themeVariablesInIndexHtml(): Plugin {
  return {
    name: 'salon-theme-variables',
    transformIndexHtml: () => [
      {
        tag: 'style',
        attrs: { 'data-theme-variables': true },
        children: themeVariablesCss(':root:root'),
        injectTo: 'head',
      },
    ],
  };
}

/**
 * React Router 7's package exports name only its development build (remix-run/react-router#14102: "temporary"),
 * so a production bundle carried its dev-only warnings and checks (ENABLE_DEV_WARNINGS = true) into the entry
 * every page loads. The build takes the production files the package ships beside them; tests and `vite dev`
 * keep the development build and its warnings.
 */
function reactRouterProductionBuild(): Plugin {
  return {
    name: 'salon-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          {
            find: /^react-router$/,
            replacement: fileURLToPath(
              new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
            ),
          },
        ],
      },
    }),
  };
}

export default defineConfig({
  plugins: [
    react(),
    reactRouterProductionBuild(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // Registration is in src/lib/pwa.ts: the CSP (script-src 'self') forbids the plugin's inline script.
      injectRegister: false,
      manifest,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webp,woff2}'],
      },
      devOptions: { enabled: false },
    }),
    firstScreenFirst(),
    themeVariablesInIndexHtml(),
    precompress(),
  ],
  resolve: {
    // @tanstack/react-query-persist-client pins an older query-core of its own: one copy of the cache code, not two.
    dedupe: ['@tanstack/query-core'],
  },
  build: {
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api/': { target: API_ORIGIN },
      '/dev/': { target: API_ORIGIN },
    },
  },
  preview: {
    proxy: {
      '/api/': { target: API_ORIGIN },
      '/dev/': { target: API_ORIGIN },
    },
  },
});
