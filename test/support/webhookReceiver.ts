// A webhook receiver on 127.0.0.1 (port 0) that records every request with its raw body and checks its
// signature with the official `standardwebhooks` package, once per secret it knows, as an integrator would.
// It imports nothing from the product: the header names come from the Standard Webhooks spec, written here,
// so a product change to how it signs or names headers fails these checks instead of moving them along.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

/** The Standard Webhooks headers (spec: github.com/standard-webhooks/standard-webhooks, "Signature scheme"). */
const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
type SignatureHeader = (typeof SIGNATURE_HEADERS)[number];

/** The three Standard Webhooks headers of a request, as `Webhook.verify` takes them ('' when absent). */
export function webhookHeaders(headers: IncomingHttpHeaders): Record<SignatureHeader, string> {
  const entries = SIGNATURE_HEADERS.map((name) => {
    const value = headers[name];
    return [name, (Array.isArray(value) ? value[0] : value) ?? ''] as const;
  });
  return Object.fromEntries(entries) as Record<SignatureHeader, string>;
}

export interface ReceivedWebhook {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived (signatures cover these bytes). */
  body: string;
  /** One entry per receiver secret, in order: whether that secret alone verified the request. */
  verifiedBy: boolean[];
}

/** Answers one request; `hit` is its 1-based position. Leave `res` alone to never answer. */
export type Responder = (request: ReceivedWebhook, res: ServerResponse, hit: number) => void;

export interface WebhookReceiver {
  /** e.g. `http://127.0.0.1:43210/hooks/orders` */
  readonly url: string;
  readonly origin: string;
  readonly received: ReceivedWebhook[];
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  /** The `whsec_…` secrets this integrator verifies with. */
  secrets: readonly string[];
  /** @default answer 204 */
  respond?: Responder;
  /** Path and query of `url`. @default `/hooks/orders` */
  path?: string;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const respond = options.respond ?? ((_request, res) => res.writeHead(204).end());
  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedWebhook = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        verifiedBy: options.secrets.map((secret) => verifies(secret, body, req.headers)),
      };
      received.push(request);
      respond(request, res, received.length);
    });
  });
  return {
    url: `${server.origin}${options.path ?? '/hooks/orders'}`,
    origin: server.origin,
    received,
    close: () => server.close(),
  };
}

/** Whether `secret` verifies this body and these headers (official package; timestamp within 5 min). */
export function verifies(secret: string, body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(body, webhookHeaders(headers));
    return true;
  } catch {
    return false;
  }
}

/** A fresh, valid Standard Webhooks secret (32 random bytes). */
export function makeWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
