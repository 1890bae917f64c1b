// An SMTP server on 127.0.0.1 (smtp-server) for trying e-mail delivery without a mail account: it accepts
// every message and reports its recipients and subject.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MailInbox {
  /** For the config's `smtp.url` secret. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMailInbox(onMail: (to: string[], subject: string) => void): Promise<MailInbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        onMail(to, subjectOf(Buffer.concat(chunks).toString('utf8')));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The Subject header, unfolded, with RFC 2047 encoded words (as nodemailer writes them) decoded. */
function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const match = /^subject:((?:.*)(?:\r?\n[ \t].*)*)/im.exec(head);
  const folded = (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim();
  return folded
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_word, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_hex, code: string) =>
                String.fromCharCode(Number.parseInt(code, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}
