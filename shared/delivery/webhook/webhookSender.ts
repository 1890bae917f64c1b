// Delivers one event to one webhook subscriber, per Standard Webhooks: POST the CloudEvent JSON, signed
// with every current secret, within 15 s, and turn the answer (or its absence) into a DeliveryOutcome.
// Retrying is not done here: the outcome tells the outbox or the queue when and whether to try again.
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import { createFetchHttpClient } from '../../http/fetchHttpClient.js';
import {
  type HttpClient,
  type HttpClientFactory,
  type HttpResponse,
  type HttpResponseBody,
  TIMEOUT_CODES,
} from '../../http/httpClient.js';
import { USER_AGENT } from '../../version.js';
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
  /** http:// or https://; may carry a token in its path or query, so reasons quote its origin only. */
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
  readonly #http: HttpClient;
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
    this.#http = (options.httpClient ?? createFetchHttpClient)({
      connectMs: Math.min(CONNECT_TIMEOUT_MS, this.#timeoutMs),
      headersMs: this.#timeoutMs,
      bodyMs: this.#timeoutMs,
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
      return { kind: 'dead', reason: `cannot sign event: ${oneLine(messageOf(error))}` };
    }
    const headers = {
      // Not `application/cloudevents+json` (the CloudEvents structured mode): receivers' JSON body parsers
      // (express.json(), most frameworks) and Standard Webhooks tooling expect `application/json`, and the
      // body is still a complete CloudEvent (specversion, id, type, …) for consumers that want one.
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'user-agent': USER_AGENT,
    };

    // The HTTP client's headers and body timeouts bound each silence; the abort bounds the attempt as a whole.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    try {
      const response = await this.#http.request(this.#url, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      });
      const delivered = response.status >= 200 && response.status < 300;
      const excerpt = delivered ? await discard(response.body) : await this.#excerpt(response);
      return classifyWebhookResponse(
        { status: response.status, headers: response.headers, excerpt },
        this.#endpoint,
        this.#clock(),
      );
    } catch (error) {
      return { kind: 'retry', reason: this.#failureReason(error, controller.signal.aborted) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connections its HTTP client holds. */
  async close(): Promise<void> {
    await this.#http.close();
  }

  /** The start of a textual error body on one line, without anything of the URL's query. */
  async #excerpt(response: HttpResponse): Promise<string> {
    const text = await readPrefix(response.body, MAX_ERROR_BODY_BYTES);
    const type = String(response.headers['content-type'] ?? 'text/plain');
    if (!/^text\/|json|xml/i.test(type)) return '';
    const line = oneLine(this.#redact(text));
    return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
  }

  #failureReason(error: unknown, abortedByUs: boolean): string {
    const code = (error as { code?: unknown } | null)?.code;
    const seconds = `${this.#timeoutMs / 1000} s`;
    if (abortedByUs) return `${this.#endpoint} gave no complete answer within ${seconds} (timeout)`;
    if (code === TIMEOUT_CODES.connect)
      return `${this.#endpoint} did not accept a connection in time (timeout)`;
    if (code === TIMEOUT_CODES.headers || code === TIMEOUT_CODES.body) {
      return `${this.#endpoint} went silent for ${seconds} (timeout)`;
    }
    const detail =
      typeof code === 'string' ? code : oneLine(this.#redact(messageOf(error))).slice(0, EXCERPT_CHARS);
    return `network error reaching ${this.#endpoint}: ${detail}`;
  }

  /**
   * Receivers sometimes echo the request URL, or even a secret they were set up with; neither the query
   * (often a token) nor a secret may reach a reason, which ends up in logs and `deliveries` listings.
   */
  #redact(text: string): string {
    let redacted = text;
    for (const secret of this.#secrets) redacted = redacted.replaceAll(secret.slice('whsec_'.length), '…');
    redacted = redacted.replaceAll(this.#url.href, this.#endpoint);
    if (this.#url.search) redacted = redacted.replaceAll(this.#url.search, '?…');
    for (const value of this.#url.searchParams.values()) {
      if (value.length >= 4) redacted = redacted.replaceAll(value, '…');
    }
    return redacted;
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookUrlError(
      subscriberId,
      `the URL must use http or https, not "${url.protocol.slice(0, -1)}"`,
    );
  }
  if (url.username || url.password) {
    // undici would silently drop them (fetch refuses the URL), and the receiver would see unauthenticated
    // requests.
    throw new WebhookUrlError(subscriberId, 'the URL must not carry a user name or password');
  }
  url.hash = '';
  return url;
}

/** Drains a success response so its connection is reused; what it says does not matter. */
async function discard(body: HttpResponseBody): Promise<string> {
  try {
    await body.dump();
  } catch {
    // The 2xx already arrived; a body cut short does not undo the delivery.
  }
  return '';
}

/** Up to `limit` bytes of the body as text; the rest is dropped (and the connection with it). */
async function readPrefix(body: HttpResponseBody, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // The status already decided the outcome; the text is only a courtesy in the reason.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
