import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium headless shell (npx playwright install cannot download here; scripts/lib/system-deps.mjs installs
 * it and says why not the full build); flags keep it off the closed network.
 */
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
};

export async function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

/** Screenshots are kept as CI artifacts in test-results/. */
export function screenshotPath(name: string): string {
  const dir = path.resolve(import.meta.dirname, '..', '..', 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

/**
 * A persistent profile (the offline suites, issue 7): IndexedDB, the service worker and its caches survive closing
 * and reopening the context, as they survive a tablet's browser restart. Service workers are allowed.
 */
export async function launchPersistentChromium(
  userDataDir: string,
  options: Omit<NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>, 'executablePath' | 'args'> = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { ...CHROMIUM, serviceWorkers: 'allow', ...options });
}
