import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeToOthers } from './data-dir';

describe('closeToOthers', () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes group and other permissions from every folder and file, and follows no link', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    try {
      fs.mkdirSync(path.join(root, 'db', 'base'), { recursive: true });
      fs.writeFileSync(path.join(root, 'db', 'base', 'table'), 'rows');
      fs.writeFileSync(path.join(root, 'jwt-secret'), 'secret');
      fs.writeFileSync(path.join(outside, 'shared'), 'not ours');
      fs.symlinkSync(outside, path.join(root, 'link'));
      for (const dir of [root, path.join(root, 'db'), path.join(root, 'db', 'base')]) fs.chmodSync(dir, 0o755);
      fs.chmodSync(path.join(root, 'db', 'base', 'table'), 0o666);
      fs.chmodSync(path.join(root, 'jwt-secret'), 0o644);
      fs.chmodSync(path.join(outside, 'shared'), 0o644);

      expect(closeToOthers(root)).toEqual({ changed: 5, failed: [] });
      const mode = (entry: string) => fs.statSync(path.join(root, entry)).mode & 0o777;
      expect([mode('.'), mode('db'), mode('db/base')]).toEqual([0o700, 0o700, 0o700]);
      expect([mode('db/base/table'), mode('jwt-secret')]).toEqual([0o600, 0o600]);
      expect(fs.statSync(path.join(outside, 'shared')).mode & 0o777).toBe(0o644);
      // A second walk finds nothing left to change.
      expect(closeToOthers(root).changed).toBe(0);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
