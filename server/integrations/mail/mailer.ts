/**
 * Outgoing e-mail (docs/architecture.md): SMTP through nodemailer when SMTP_URL is set, else the dev mailbox.
 * Plain-text, UTF-8 messages; nodemailer encodes the Japanese subject and the From display name itself.
 */
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { coalescedWrites } from '../../coalesced-writes';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { storeDevMail } from './dev-mailbox';

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  mode: 'smtp' | 'dev';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A message the SMTP server (or this module) did not accept. `permanent`: retrying cannot succeed. */
class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

const DEFAULT_SMTP_TIMEOUT_MS = 10_000;

/**
 * One bare address, nothing else: no display name, no list, no whitespace (so no CR/LF: the address can
 * never add a header or a second recipient).
 */
const SINGLE_ADDRESS = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+\.[^\s@,;:<>()[\]"\\]+$/;

function assertSafeRecipient(to: string): void {
  if (/[\r\n]/.test(to) || !SINGLE_ADDRESS.test(to)) throw new MailError('invalid recipient address', true);
}

export function createMailer(
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>,
  db: Database,
  options: { timeoutMs?: number } = {},
): Mailer {
  if (!env.SMTP_URL) {
    // The worker sends a batch side by side: the e-mails stored while one insert is in flight go in the next one
    // (server/coalesced-writes.ts), not one statement each.
    const store = coalescedWrites((mails: OutgoingMail[]) => storeDevMail(db, mails));
    return {
      mode: 'dev',
      async send(mail) {
        assertSafeRecipient(mail.to);
        await store({ ...mail, subject: oneLine(mail.subject) });
      },
      close() {},
    };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  // Every stage has a limit: a server that accepts the connection and then says nothing must not hold the
  // worker (the worker also races the whole send against its own timeout). The transport is built here
  // because nodemailer.createTransport({ url, ... }) keeps only what the URL says and drops the timeouts.
  const transport = nodemailer.createTransport(
    new SMTPTransport({
      url: env.SMTP_URL,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
    }),
  );
  return {
    mode: 'smtp',
    async send(mail) {
      assertSafeRecipient(mail.to);
      try {
        await transport.sendMail({
          from: env.MAIL_FROM,
          to: { name: '', address: mail.to },
          subject: oneLine(mail.subject),
          text: mail.text,
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      } catch (error) {
        throw toMailError(error);
      }
    },
    close: () => transport.close(),
  };
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

function toMailError(error: unknown): MailError {
  const { message, responseCode, command } = error as { message?: string; responseCode?: number; command?: string };
  // A 5xx to RCPT TO: the mailbox does not exist or refuses us; anything else (4xx, timeouts, connection
  // failures, a 5xx from a misconfigured relay) may pass later.
  const permanent = typeof responseCode === 'number' && responseCode >= 500 && command === 'RCPT TO';
  return new MailError(`SMTP: ${message ?? String(error)}`, permanent);
}
