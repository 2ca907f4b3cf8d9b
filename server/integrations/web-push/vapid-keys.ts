import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

/** The VAPID identity this server signs its pushes with (RFC 8292). */
export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: what browsers take as applicationServerKey. */
  publicKey: string;
  privateKey: string;
  /** mailto: or https: contact that push services may use to reach the operator. */
  subject: string;
}

const KEY_FILE = 'vapid-keys.json';

/**
 * The key pair from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or else one made on first start and kept in DATA_DIR
 * (mode 0600), like the server's other secrets (server/secrets.ts): a new pair on every start would silently end
 * every browser's subscription, since push services only accept pushes signed by the key it subscribed with.
 */
export function loadVapidKeys(input: {
  dataDir: string;
  publicKey?: string;
  privateKey?: string;
  subject?: string;
  /** Used for the default subject when it is https (push services reject a localhost mailto: less often). */
  publicUrl: string;
}): VapidKeys {
  const subject = input.subject ?? (input.publicUrl.startsWith('https:') ? input.publicUrl : 'mailto:admin@localhost');
  if (input.publicKey && input.privateKey) {
    return { publicKey: input.publicKey, privateKey: input.privateKey, subject };
  }
  const file = path.join(input.dataDir, KEY_FILE);
  fs.mkdirSync(input.dataDir, { recursive: true });
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = webpush.generateVAPIDKeys();
  fs.writeFileSync(file, `${JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey })}\n`, {
    mode: 0o600,
  });
  return { ...made, subject };
}
