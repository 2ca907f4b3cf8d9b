import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadVapidKeys } from './vapid-keys';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vapid-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('the VAPID key pair', () => {
  it('is made once, kept in DATA_DIR readable by the owner only, and reused after a restart', () => {
    const dataDir = tempDir();
    const first = loadVapidKeys({ dataDir, publicUrl: 'http://127.0.0.1:8080' });
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first.subject).toBe('mailto:admin@localhost');
    const file = path.join(dataDir, 'vapid-keys.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys({ dataDir, publicUrl: 'https://salon.example.jp' })).toEqual({
      ...first,
      subject: 'https://salon.example.jp',
    });
  });

  it('comes from the environment when given there, and nothing is written', () => {
    const dataDir = tempDir();
    const keys = loadVapidKeys({
      dataDir,
      publicKey: 'PUBLIC',
      privateKey: 'PRIVATE',
      subject: 'mailto:owner@example.jp',
      publicUrl: 'https://salon.example.jp',
    });
    expect(keys).toEqual({ publicKey: 'PUBLIC', privateKey: 'PRIVATE', subject: 'mailto:owner@example.jp' });
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
