import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder (the one with package.json), found from this module's own place: `server/` when the server
 * runs from its sources (tests, `npm run dev`), `dist-server/` when it runs bundled (`npm start`, decision 0019).
 * Files the server reads at run time (the migrations, the built browser app) are named from here, not from the
 * module that reads them, which is somewhere else in the bundle.
 */
function findProjectRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}

export const projectRoot = findProjectRoot();
