// The machine packages the test suite needs: Chromium's headless shell with Japanese fonts (browser e2e) and
// PostgreSQL's server binaries (integration on a real PostgreSQL). On Debian as root they are installed; elsewhere the
// caller is told exactly what is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { findPostgresBin } from './postgres.mjs';

/**
 * The browser suites run Chromium's headless shell (the same Chromium without the desktop browser around it, which
 * Playwright also uses for headless runs): about 40 % less CPU in the browser processes than the full build
 * (docs/decisions/0020-test-and-start-dependencies.md). `npm run bench:web` keeps the full build for Lighthouse.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

const REQUIREMENTS = [
  {
    name: 'Chromium (headless shell)',
    debianPackage: 'chromium-headless-shell',
    present: () => fs.existsSync(CHROMIUM_PATH),
  },
  {
    name: 'Japanese fonts (Noto CJK)',
    debianPackage: 'fonts-noto-cjk',
    present: () =>
      fs.existsSync('/usr/share/fonts/opentype/noto') &&
      fs.readdirSync('/usr/share/fonts/opentype/noto').some((f) => f.includes('CJK')),
  },
  {
    name: 'PostgreSQL server (initdb, pg_ctl)',
    debianPackage: 'postgresql',
    present: () => Boolean(process.env.TEST_POSTGRES_URL || findPostgresBin()),
  },
];

export function missingRequirements() {
  return REQUIREMENTS.filter((requirement) => !requirement.present());
}

/** Installs what is missing with apt-get when that is possible; returns what is still missing. */
export function ensureSystemDeps({ log = console.log } = {}) {
  let missing = missingRequirements();
  if (missing.length === 0) return [];
  const canInstall =
    process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (canInstall) {
    const packages = missing.map((requirement) => requirement.debianPackage);
    log(`Installing ${packages.join(', ')} with apt-get...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
    missing = missingRequirements();
  }
  return missing;
}
