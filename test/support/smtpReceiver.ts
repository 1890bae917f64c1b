// A real SMTP server (`smtp-server`) on 127.0.0.1, port 0, that records each message it accepts, raw
// and decoded just enough for assertions (headers, encoded words, the text and HTML parts), and can be
// told to refuse recipients with a given reply or to require a login.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope sender (MAIL FROM). */
  mailFrom: string;
  /** The envelope recipients (RCPT TO). */
  rcptTo: string[];
  raw: string;
  /** Header names lower-cased, values unfolded and with RFC 2047 encoded words decoded. */
  headers: Map<string, string>;
  /** The decoded text/plain part, if any. */
  text: string | undefined;
  /** The decoded text/html part, if any. */
  html: string | undefined;
}

export interface SmtpReceiverOptions {
  /** Refuse every RCPT TO with this reply, e.g. `{ code: 550, message: 'Mailbox unavailable' }`. */
  rejectRecipients?: { code: number; message: string };
  /** Require (and accept only) this login. */
  credentials?: { user: string; pass: string };
}

export interface SmtpReceiver {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`, with the credentials in it when the receiver requires them. */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Resolves with the next accepted message (or one already received and not yet taken). */
  nextMail(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  let taken = 0;
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const deliver = (mail: ReceivedMail) => {
    received.push(mail);
    const waiter = waiting.shift();
    if (waiter) {
      taken += 1;
      waiter(mail);
    }
  };

  const { credentials, rejectRecipients } = options;
  const server = new SMTPServer({
    authOptional: !credentials,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Senders close their pools before the receiver goes; anything left is cut at once.
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (!rejectRecipients) return callback();
      const error: SMTPServerError = new Error(rejectRecipients.message);
      error.responseCode = rejectRecipients.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        deliver({
          mailFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
          rcptTo: envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...parseMessage(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const login = credentials
    ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`
    : '';
  return {
    port,
    url: `smtp://${login}127.0.0.1:${port}`,
    received,
    nextMail: () => {
      const ready = received[taken];
      if (ready) {
        taken += 1;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ParsedPart {
  headers: Map<string, string>;
  text: string | undefined;
  html: string | undefined;
}

/** Just enough MIME for what nodemailer writes: nested multiparts, base64 and quoted-printable. */
function parseMessage(raw: string): ParsedPart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => parseMessage(part.replace(/^\r?\n/, '')));
    return {
      headers,
      text: parts.find((part) => part.text !== undefined)?.text,
      html: parts.find((part) => part.html !== undefined)?.html,
    };
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit');
  return {
    headers,
    text: /^text\/plain/i.test(type) ? decoded : undefined,
    html: /^text\/html/i.test(type) ? decoded : undefined,
  };
}

function decodeBody(body: string, encoding: string): string {
  if (/^base64$/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/^quoted-printable$/i.test(encoding)) return decodeQuotedPrintable(body.replace(/\r?\n$/, ''));
  return body.replace(/\r?\n$/, '').replace(/\r\n/g, '\n');
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); white space between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_match, _charset: string, encoding: string, data: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
