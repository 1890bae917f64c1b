// Delivers one event to one webhook subscriber, per Standard Webhooks: POST the CloudEvent JSON, signed
// with every current secret, within 15 s, and turn the answer (or its absence) into a DeliveryOutcome.
// Retrying is not done here: the outcome tells the outbox or the queue when and whether to try again.

import { DELIVERY_URL_RULE, parseDeliveryUrl } from '../../config/deliveryUrl.js';
import { networkWords } from '../../errors/networkWords.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import type { HttpClientFactory } from '../../http/httpClient.js';
import { HttpTimeoutError, type HttpTransportError } from '../../http/httpErrors.js';
import { queryForms } from '../../http/redactUrl.js';
import { HttpTransport, type TransportResponse } from '../../http/transport.js';
import { excerpt } from '../../text/excerpt.js';
import type { DeliveryOutcome, EventSender } from '../deliveryOutcome.js';
import { WebhookUrlError } from '../errors.js';
import { classifyWebhookResponse } from './classifyWebhookResponse.js';
import { assertWebhookSecrets, signWebhook } from './signWebhook.js';

/** Standard Webhooks recommends 15 to 30 s; the shorter end keeps a stuck receiver from holding a worker. */
export const WEBHOOK_TIMEOUT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** How much of an error response we read, and how much of it a reason quotes. */
const MAX_ERROR_BODY_BYTES = 4_096;
const EXCERPT_CHARS = 200;

export interface WebhookSenderOptions {
  subscriberId: string;
  /** https://, or http:// on loopback (deliveryUrl.ts); may carry a token in its path or query, so reasons quote its origin only. */
  url: string;
  /** Resolved `whsec_…` secrets, newest first or not: each one signs. */
  secrets: readonly string[];
  /** Whether parent e-mail and phone stay in the body. */
  includeContactDetails: boolean;
  /** Makes the sender's HTTP client (closed with `close()`). @default Node's fetch (createFetchHttpClient) */
  httpClient?: HttpClientFactory;
  /** Epoch milliseconds, for `webhook-timestamp` and Retry-After dates. @default Date.now */
  clock?: () => number;
  /** The whole attempt: connect, headers and body. @default WEBHOOK_TIMEOUT_MS */
  timeoutMs?: number;
}

export class WebhookSender implements EventSender {
  readonly subscriberId: string;
  readonly #url: URL;
  /** How reasons name the receiver: scheme, host and port. */
  readonly #endpoint: string;
  readonly #secrets: readonly string[];
  readonly #includeContactDetails: boolean;
  readonly #transport: HttpTransport;
  readonly #clock: () => number;
  readonly #timeoutMs: number;

  /** @throws WebhookUrlError, WebhookSecretError, RangeError (timeout): misconfiguration, found up front */
  constructor(options: WebhookSenderOptions) {
    this.subscriberId = options.subscriberId;
    this.#url = parseWebhookUrl(options.subscriberId, options.url);
    this.#endpoint = this.#url.origin;
    assertWebhookSecrets(options.secrets, options.subscriberId);
    this.#secrets = [...options.secrets];
    this.#includeContactDetails = options.includeContactDetails;
    this.#clock = options.clock ?? Date.now;
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    if (!Number.isFinite(this.#timeoutMs) || this.#timeoutMs <= 0) {
      throw new RangeError(
        `webhook subscriber "${options.subscriberId}": timeoutMs must be a positive number`,
      );
    }
    this.#transport = new HttpTransport({
      // Each phase's timeout bounds a silence; the attempt's bounds the whole exchange.
      timeouts: {
        connectMs: Math.min(CONNECT_TIMEOUT_MS, this.#timeoutMs),
        headersMs: this.#timeoutMs,
        bodyMs: this.#timeoutMs,
      },
      attemptTimeoutMs: this.#timeoutMs,
      ...(options.httpClient === undefined ? {} : { httpClient: options.httpClient }),
      // Receivers sometimes echo the request URL, or even a secret they were set up with; neither the
      // query (often a token) nor a secret may reach a reason, which ends up in logs and `deliveries`.
      secrets: [
        ...queryForms(this.#url),
        ...this.#secrets.map((secret) => ({ value: secret.slice('whsec_'.length), mask: '…' })),
      ],
    });
  }

  async send(event: NotifierEvent): Promise<DeliveryOutcome> {
    // These exact bytes are signed and sent; they are never serialized twice.
    const body = JSON.stringify(eventForSubscriber(event, this.#includeContactDetails));
    // A fresh timestamp per attempt (the id stays), so receivers can refuse replays of old requests.
    const timestamp = Math.floor(this.#clock() / 1000);
    let signature: string;
    try {
      signature = signWebhook({ id: event.id, timestamp, body, secrets: this.#secrets });
    } catch (error) {
      return { kind: 'dead', reason: `cannot sign event: ${excerpt(messageOf(error), EXCERPT_CHARS)}` };
    }
    const headers = {
      // Not `application/cloudevents+json` (the CloudEvents structured mode): receivers' JSON body parsers
      // (express.json(), most frameworks) and Standard Webhooks tooling expect `application/json`, and the
      // body is still a complete CloudEvent (specversion, id, type, …) for consumers that want one.
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };

    let response: TransportResponse;
    try {
      response = await this.#transport.send(this.#url, {
        method: 'POST',
        headers,
        body,
        // A success is drained so its connection is reused; what it says does not matter.
        read: (status) =>
          status >= 200 && status < 300 ? 'discard' : { excerptBytes: MAX_ERROR_BODY_BYTES },
      });
    } catch (error) {
      return { kind: 'retry', reason: this.#failureReason(error as HttpTransportError) };
    }
    return classifyWebhookResponse(
      { status: response.status, headers: response.headers, excerpt: this.#excerpt(response) },
      this.#endpoint,
      this.#clock(),
    );
  }

  /** Closes the connections its HTTP client holds. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /** The start of a textual error body (already redacted by the transport) on one line. */
  #excerpt(response: TransportResponse): string {
    const type = String(response.headers['content-type'] ?? 'text/plain');
    if (!response.text || !/^text\/|json|xml/i.test(type)) return '';
    return excerpt(response.text, EXCERPT_CHARS);
  }

  /** `transport.send` throws nothing but HttpTransportError. */
  #failureReason(failure: HttpTransportError): string {
    if (!(failure instanceof HttpTimeoutError)) {
      return `cannot reach ${this.#endpoint} (${failure.code === undefined ? failure.detail : networkWords(failure.code)})`;
    }
    const seconds = `${this.#timeoutMs / 1000} s`;
    switch (failure.phase) {
      case 'attempt':
        return `${this.#endpoint} gave no complete answer within ${seconds} (timeout)`;
      case 'connect':
        return `${this.#endpoint} did not accept a connection in time (timeout)`;
      default:
        return `${this.#endpoint} went silent for ${seconds} (timeout)`;
    }
  }
}

function parseWebhookUrl(subscriberId: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not quoted: a mistyped URL may still hold its token.
    throw new WebhookUrlError(subscriberId, 'the URL is not a valid absolute URL');
  }
  if (parseDeliveryUrl(text) === undefined) {
    throw new WebhookUrlError(subscriberId, `the URL must be ${DELIVERY_URL_RULE}`);
  }
  if (url.username || url.password) {
    // undici would silently drop them (fetch refuses the URL), and the receiver would see unauthenticated
    // requests.
    throw new WebhookUrlError(subscriberId, 'the URL must not carry a user name or password');
  }
  url.hash = '';
  return url;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
