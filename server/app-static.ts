/**
 * The built SPA (dist/) and the answer for everything no route matches: client-side routes get index.html, API
 * paths and missing files a 404 error answer. buildApp() (server/app.ts) sets it up last.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../src/shared/messages';
import { projectRoot } from './paths';

const defaultStaticDir = path.join(projectRoot, 'dist');

/** Serves `staticDir` (undefined: ./dist; null: the API only) when it holds a build, and answers the rest. */
export async function serveSpaAndNotFound(app: FastifyInstance, staticDir: string | null | undefined) {
  const root = staticDir === undefined ? defaultStaticDir : staticDir;
  const spa = Boolean(root && fs.existsSync(path.join(root, 'index.html')));
  if (spa) await serveStaticFiles(app, root!);
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/dev/');
    // A missing file (an old client's lazy chunk after a deploy) must be a 404, not HTML with status 200.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(pathname);
    // Client-side routes (/reserve, /admin/...) are the SPA's: they all get index.html.
    if (spa && (request.method === 'GET' || request.method === 'HEAD') && !isApi && !looksLikeFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
  });
}

/** The built SPA and its service worker. */
async function serveStaticFiles(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // Our own cache-control below: the plugin's default (public, max-age=0) would override it.
    cacheControl: false,
    // The build writes .br and .gz siblings (vite.config.ts): sent to browsers that accept them.
    preCompressed: true,
    setHeaders(res, filePath) {
      // One URL, several encodings: shared caches must keep them apart.
      res.setHeader('vary', 'accept-encoding');
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        // index.html, sw.js and the manifest must be revalidated, or clients never see a new version.
        res.setHeader('cache-control', 'no-cache');
      }
    },
  });
}
