// An SMTP server on 127.0.0.1 (smtp-server) for trying e-mail delivery without a mail account: it accepts
// every message and reports its recipients, subject and text part.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMailMessage } from './mailMessage.js';

export interface MailInbox {
  /** For the config's `smtp.url` secret. */
  readonly url: string;
  close(): Promise<void>;
}

export interface ReceivedMail {
  /** The envelope recipients. */
  to: string[];
  subject: string;
  /** The decoded text/plain part, if the message has one. */
  text: string | undefined;
}

export async function startMailInbox(onMail: (mail: ReceivedMail) => void): Promise<MailInbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = parseMailMessage(Buffer.concat(chunks).toString('utf8'));
        onMail({
          to: session.envelope.rcptTo.map((address) => address.address),
          subject: message.headers.get('subject') ?? '',
          text: message.text,
        });
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
