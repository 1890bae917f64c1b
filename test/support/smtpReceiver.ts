// A real SMTP server (`smtp-server`) on 127.0.0.1, port 0, that records each message it accepts, raw
// and decoded just enough for assertions (headers, encoded words, the text and HTML parts), and can be
// told to refuse recipients with a given reply or to require a login.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { parseMailMessage } from '../../simulator/inbox/mailMessage.js';

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
          ...parseMailMessage(raw),
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
