// The demo's integrator: a webhook endpoint on 127.0.0.1 that verifies each delivery's Standard Webhooks
// signature with the official `standardwebhooks` package, as a real receiver would, and answers 204.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  /** The `webhook-id` header: the event id. */
  eventId: string;
  /** The signature matched the body and the shared secret, and the timestamp is recent. */
  verified: boolean;
  receivedAt: number;
}

export interface DemoWebhookReceiver {
  url: string;
  /** The last delivery of this event id, if any arrived. */
  received(eventId: string): ReceivedDelivery | undefined;
  close(): Promise<void>;
}

export async function startDemoWebhookReceiver(
  secret: string,
  clock: () => number = Date.now,
): Promise<DemoWebhookReceiver> {
  const verifier = new Webhook(secret);
  const deliveries = new Map<string, ReceivedDelivery>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = webhookHeaders(request.headers);
      let verified = true;
      try {
        verifier.verify(Buffer.concat(chunks).toString('utf8'), headers);
      } catch {
        verified = false;
      }
      deliveries.set(headers['webhook-id'], {
        eventId: headers['webhook-id'],
        verified,
        receivedAt: clock(),
      });
      // A receiver refuses what it cannot verify; the runner then shows the failure.
      response.writeHead(verified ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/orders`,
    received: (eventId) => deliveries.get(eventId),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The three Standard Webhooks headers as the package's `verify` takes them. */
export function webhookHeaders(
  headers: IncomingHttpHeaders,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const pick = (name: string): string => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  return {
    'webhook-id': pick('webhook-id'),
    'webhook-timestamp': pick('webhook-timestamp'),
    'webhook-signature': pick('webhook-signature'),
  };
}
