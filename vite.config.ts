import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The API server in development: `npm run dev` (scripts/dev.mjs) starts it beside Vite on PORT, default 8080.
const API_ORIGIN = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // Registration is in src/lib/pwa.ts: the CSP (script-src 'self') forbids the plugin's inline script.
      injectRegister: false,
      // The web app manifest is added with the install work (DESIGN.md §2: manifest.webmanifest).
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webp,woff2}'],
      },
      devOptions: { enabled: false },
    }),
  ],
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
