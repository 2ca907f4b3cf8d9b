import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const folders: string[] = [];

/** Runs vitest on one file in a folder of its own, with the reporter vitest.config.ts installs. */
function runVitest(testFile: string, env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-skipped-'));
  folders.push(dir);
  fs.writeFileSync(path.join(dir, 'sample.test.mjs'), testFile);
  fs.writeFileSync(
    path.join(dir, 'vitest.config.mjs'),
    `import { NoSkippedTests } from ${JSON.stringify(path.join(root, 'vitest.config.ts'))};
export default { test: { include: ['*.test.mjs'], globals: true, reporters: ['default', new NoSkippedTests()] } };`,
  );
  const { CI: _ci, ...rest } = process.env;
  const result = spawnSync(process.execPath, [vitestBin, 'run', '--root', dir], {
    cwd: dir,
    env: { ...rest, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// Written here, not kept as a file: a skipped test in the repository is what lint refuses.
const SKIPPING = ["it('runs', () => {});", "it.skip('is skipped', () => {});", "it.todo('is a placeholder');"].join(
  '\n',
);

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('CI=true: nothing may be skipped', () => {
  it('fails a CI run with a skipped and a todo test, and names them', () => {
    const { status, output } = runVitest(SKIPPING, { CI: 'true' });
    expect(status).toBe(1);
    expect(output).toContain('nothing may be skipped, and 2 test(s) were');
    expect(output).toContain('is skipped');
    expect(output).toContain('is a placeholder');
  });

  it('lets the same run pass off CI, and a CI run where everything ran', () => {
    expect(runVitest(SKIPPING, {}).status).toBe(0);
    expect(runVitest("it('runs', () => {});", { CI: 'true' }).status).toBe(0);
  });
});
