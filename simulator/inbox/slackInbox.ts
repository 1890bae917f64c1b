// A Slack-like incoming-webhook endpoint on 127.0.0.1 for trying Slack delivery without a Slack
// workspace: it answers `ok` to every message and reports each one: its plain-text fallback and its blocks.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackInbox {
  /** An incoming-webhook URL on this endpoint, for a subscriber's `webhookUrl` secret. */
  readonly webhookUrl: string;
  close(): Promise<void>;
}

export interface ReceivedSlackMessage {
  /** The last segment of the webhook path, standing for the channel the URL posts to. */
  channel: string;
  /** The notification fallback, `(no text)` when the payload has none. */
  text: string;
  /** The Block Kit layout as posted, unchecked. */
  blocks: unknown;
}

export async function startSlackInbox(
  onMessage: (message: ReceivedSlackMessage) => void,
): Promise<SlackInbox> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/services/')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no_service');
        return;
      }
      let payload: { text?: unknown; blocks?: unknown };
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof payload;
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
        return;
      }
      onMessage({
        channel: req.url.split('/').pop() ?? '',
        text: typeof payload?.text === 'string' ? payload.text : '(no text)',
        blocks: payload?.blocks,
      });
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
