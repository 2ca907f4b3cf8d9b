// npm start: build what is missing or older than its sources, then run the server bundle (dist-server/server.mjs,
// docs/decisions/0019-the-server-is-bundled.md), which serves the SPA, the API and the service worker from one Node
// process. SKIP_BUILD=true leaves the browser app as it is (a production install builds it once, `npm run build`);
// the server bundle is always the one of the sources beside it.
import { pathToFileURL } from 'node:url';
import { buildApp, buildIsStale, buildServer, SERVER_BUNDLE, serverBuildIsStale } from './lib/build.mjs';

if (process.env.SKIP_BUILD !== 'true' && buildIsStale()) {
  console.log('Building the browser app (first start or changed sources)...');
  buildApp();
}
if (serverBuildIsStale()) {
  try {
    await buildServer();
  } catch (error) {
    console.error(`The server could not be built into ${SERVER_BUNDLE} (${error.message}). Run npm run build.`);
    process.exit(1);
  }
}
await import(pathToFileURL(SERVER_BUNDLE).href);
