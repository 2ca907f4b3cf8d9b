// npm start: build the browser app if needed, then serve the SPA, the API and the service worker from one
// Node process (server/server.ts, run through tsx).
import { register } from 'tsx/esm/api';
import { buildApp, buildIsStale } from './lib/build.mjs';

if (process.env.SKIP_BUILD !== 'true' && buildIsStale()) {
  console.log('Building the browser app (first start or changed sources)...');
  buildApp();
}
register();
await import('../server/server.ts');
