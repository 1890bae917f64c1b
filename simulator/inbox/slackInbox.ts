// A Slack-like incoming-webhook endpoint on 127.0.0.1 for trying Slack delivery without a Slack
// workspace: it answers `ok` to every message and reports each one's plain-text fallback.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackInbox {
  /** An incoming-webhook URL on this endpoint, for a subscriber's `webhookUrl` secret. */
  readonly webhookUrl: string;
  close(): Promise<void>;
}

export async function startSlackInbox(
  onMessage: (channel: string, text: string) => void,
): Promise<SlackInbox> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/services/')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no_service');
        return;
      }
      let text: string;
      try {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown };
        text = typeof payload.text === 'string' ? payload.text : '(no text)';
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
        return;
      }
      onMessage(req.url.split('/').pop() ?? '', text);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    webhookUrl: `http://127.0.0.1:${port}/services/T00000000/B00000000/kitchen`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
