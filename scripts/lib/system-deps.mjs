// The machine packages the test suite needs: Chromium with Japanese fonts (browser e2e) and PostgreSQL's
// server binaries (integration on a real PostgreSQL). On Debian as root they are installed; elsewhere the
// caller is told exactly what is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { findPostgresBin } from './postgres.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const REQUIREMENTS = [
  { name: 'Chromium', debianPackage: 'chromium', present: () => fs.existsSync(CHROMIUM_PATH) },
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
