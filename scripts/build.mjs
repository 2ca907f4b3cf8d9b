// npm run build: the browser app (dist/, Vite) and the server (dist-server/server.mjs, esbuild), whatever their age.
import { buildApp, buildServer } from './lib/build.mjs';

buildApp();
await buildServer();
