import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/**
 * What the fake does with one SMTP connection:
 * - 'accept': a normal server;
 * - 'refuse': answers MAIL FROM with 451 (temporary failure: the client should retry later);
 * - 'hang': greets, then never answers MAIL FROM (the client must time out);
 * - 'silent': accepts the TCP connection and never sends its greeting.
 */
export type SmtpBehaviour = 'accept' | 'refuse' | 'hang' | 'silent';

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  /** The message as received (dot-unstuffed), CRLF line ends. */
  raw: string;
  /** Header values, unfolded and decoded (RFC 2047), keyed by lower-case name; the last one wins. */
  headers: Record<string, string>;
  subject: string;
  /** The decoded text body. */
  text: string;
}

export interface FakeSmtpServer {
  /** smtp://127.0.0.1:<port>: use as SMTP_URL. */
  url: string;
  /** Every message the fake accepted (250 after DATA), in order. */
  received: ReceivedMail[];
  /** Behaviour of every connection so far, in order. */
  connections: SmtpBehaviour[];
  /** The next connections behave like this, one entry each; then 'accept' (or the fallback). */
  script(behaviours: SmtpBehaviour[]): void;
  /** What a connection does once the script is used up. Default 'accept'. */
  fallback(behaviour: SmtpBehaviour): void;
  /** Accepting a message waits this long first (to widen race windows). */
  acceptDelayMs: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1, no TLS, no auth, that can fail on demand. `port`: listen on
 * that port (a suite that first lets connections be refused there, then brings the server up); default any.
 */
export async function startFakeSmtp(options: { port?: number } = {}): Promise<FakeSmtpServer> {
  const received: ReceivedMail[] = [];
  const connections: SmtpBehaviour[] = [];
  const behaviourOf = new Map<string, SmtpBehaviour>();
  let scripted: SmtpBehaviour[] = [];
  let otherwise: SmtpBehaviour = 'accept';

  const fake: FakeSmtpServer = {
    url: '',
    received,
    connections,
    script: (behaviours) => {
      scripted = [...behaviours];
    },
    fallback: (behaviour) => {
      otherwise = behaviour;
    },
    acceptDelayMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    // Connections left hanging by the 'hang' and 'silent' behaviours are cut at close().
    closeTimeout: 50,
    onConnect(session: SMTPServerSession, callback) {
      const behaviour = scripted.shift() ?? otherwise;
      connections.push(behaviour);
      behaviourOf.set(session.id, behaviour);
      if (behaviour === 'silent') return; // no callback: no greeting, ever
      callback();
    },
    onMailFrom(_address, session, callback) {
      const behaviour = behaviourOf.get(session.id);
      if (behaviour === 'hang') return;
      if (behaviour === 'refuse') {
        const error = Object.assign(new Error('Temporary local problem, try again later'), { responseCode: 451 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const finish = () => {
          received.push({
            ...parseMessage(raw),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          });
          callback();
        };
        if (fake.acceptDelayMs > 0) setTimeout(finish, fake.acceptDelayMs);
        else finish();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  fake.url = `smtp://127.0.0.1:${port}`;
  return fake;
}

/** Headers and a single-part text body, decoded: enough for what nodemailer sends for a text e-mail. */
export function parseMessage(raw: string): Pick<ReceivedMail, 'raw' | 'headers' | 'subject' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let text: string;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
  else text = body;
  return { raw, headers, subject: headers.subject ?? '', text: text.replace(/\r\n/g, '\n') };
}

/**
 * RFC 2047: =?charset?B|Q?...?= words. Adjacent words are joined as bytes before decoding (a multi-byte
 * character may be split between two of them), and the white space between them is dropped.
 */
function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  let out = '';
  let pending: Buffer[] = [];
  let last = 0;
  const flush = () => {
    if (pending.length) out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (let match = word.exec(value); match; match = word.exec(value)) {
    const between = value.slice(last, match.index);
    if (!(pending.length && /^\s*$/.test(between))) {
      flush();
      out += between;
    }
    const [, , kind, data] = match;
    pending.push(
      kind!.toUpperCase() === 'B' ? Buffer.from(data!, 'base64') : quotedPrintableBytes(data!.replace(/_/g, ' ')),
    );
    last = match.index + match[0].length;
  }
  flush();
  return out + value.slice(last);
}

function quotedPrintableBytes(text: string): Buffer {
  const latin1 = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1');
}

function decodeQuotedPrintable(text: string): string {
  return quotedPrintableBytes(text).toString('utf8');
}
