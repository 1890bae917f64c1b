// Delivers events to one Slack subscriber through its incoming webhook: formats the message, waits for
// the webhook's pacing slot, POSTs the JSON through the HTTP transport and turns the answer into a
// DeliveryOutcome. The webhook URL is the credential, so no reason ever carries it.

import { parseDeliveryUrl } from '../../config/deliveryUrl.js';
import { networkWords } from '../../errors/networkWords.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import type { HttpClientFactory } from '../../http/httpClient.js';
import { HttpTimeoutError, type HttpTransportError } from '../../http/httpErrors.js';
import { credentialUrlForms } from '../../http/redactUrl.js';
import { retryAfterMs } from '../../http/retryAfter.js';
import { HttpTransport } from '../../http/transport.js';
import { sleep } from '../../time/sleep.js';
import type { DeliveryOutcome, EventSender } from '../deliveryOutcome.js';
import { SlackWebhookUrlError } from '../errors.js';
import { defaultHighlightWords, type HighlightWordsOf, highlightWordsFor } from '../highlightWordsOf.js';
import { formatSlackMessage } from './slackMessage.js';
import { type SlackPacer, sharedSlackPacer } from './slackPacer.js';
import { classifySlackResponse } from './slackResponse.js';

export interface SlackSenderOptions {
  subscriberId: string;
  /** The incoming-webhook URL, resolved from its secret. */
  webhookUrl: string;
  /** The environment variable or secret that holds the URL, named when the URL is refused. */
  webhookUrlSecret?: string;
  includeContactDetails: boolean;
  /** Each organization's words that flag a note (its config's). @default DEFAULT_HIGHLIGHT_WORDS for all */
  highlightWords?: HighlightWordsOf;
  /** Makes the sender's HTTP client (closed with `close()`). @default Node's fetch (createFetchHttpClient) */
  httpClient?: HttpClientFactory;
  /** @default Date.now */
  clock?: () => number;
  /** @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
  /** Longest a POST may take, connection included. @default 15_000 */
  timeoutMs?: number;
  /** @default the process-wide pacer, shared by every sender of the same URL */
  pacer?: SlackPacer;
  /**
   * Longest wait for a pacing slot; when the webhook is busier than that (a queue of messages, or a 429
   * asking for a long pause) the event is handed back for a later retry rather than blocking the caller.
   * @default 10_000
   */
  maxPaceWaitMs?: number;
}

// Only the body's first characters matter (Slack answers one word); a misbehaving peer is not read whole.
const MAX_BODY_CHARS = 1_000;

export class SlackSender implements EventSender {
  readonly subscriberId: string;
  readonly #url: URL;
  readonly #includeContactDetails: boolean;
  readonly #highlightWords: HighlightWordsOf;
  readonly #transport: HttpTransport;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #timeoutMs: number;
  readonly #pacer: SlackPacer;
  readonly #maxPaceWaitMs: number;

  constructor(options: SlackSenderOptions) {
    this.subscriberId = options.subscriberId;
    // The webhook subscribers' rule. Refused here, never discovered by sending: a URL without a scheme, or
    // plain http:// across a network, is a setting to fix, not a gone channel.
    const url = parseDeliveryUrl(options.webhookUrl);
    if (!url) throw new SlackWebhookUrlError(options.subscriberId, options.webhookUrlSecret);
    this.#url = url;
    this.#includeContactDetails = options.includeContactDetails;
    this.#highlightWords = options.highlightWords ?? defaultHighlightWords;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#pacer = options.pacer ?? sharedSlackPacer;
    this.#maxPaceWaitMs = options.maxPaceWaitMs ?? 10_000;
    this.#transport = new HttpTransport({
      timeouts: { connectMs: this.#timeoutMs, headersMs: this.#timeoutMs, bodyMs: this.#timeoutMs },
      attemptTimeoutMs: this.#timeoutMs,
      ...(options.httpClient === undefined ? {} : { httpClient: options.httpClient }),
      // The URL is the credential, its path the token of a hooks.slack.com URL.
      secrets: credentialUrlForms(options.webhookUrl, this.#url, '[webhook URL]'),
    });
  }

  async send(event: NotifierEvent): Promise<DeliveryOutcome> {
    const outcome = await this.#send(event);
    return 'reason' in outcome ? { ...outcome, reason: this.#redact(outcome.reason) } : outcome;
  }

  /** Closes the connections its HTTP client holds. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  async #send(event: NotifierEvent): Promise<DeliveryOutcome> {
    const url = this.#url;
    // Formatted before waiting, so a slot is not spent on an event that cannot be formatted.
    const body = JSON.stringify(
      formatSlackMessage(
        eventForSubscriber(event, this.#includeContactDetails),
        highlightWordsFor(event, this.#highlightWords),
      ),
    );
    const key = url.href;
    const waitMs = this.#pacer.reserve(key, this.#clock(), this.#maxPaceWaitMs);
    if (waitMs === undefined) {
      const busyMs = this.#pacer.waitFor(key, this.#clock());
      return {
        kind: 'retry',
        reason: `held back to pace the Slack webhook (1 message/s, or the pause Slack asked for); next slot in ${Math.ceil(busyMs / 1000)} s`,
        retryAfterMs: busyMs,
      };
    }
    if (waitMs > 0) await this.#sleep(waitMs);
    const outcome = await this.#post(url, body);
    if (outcome.kind === 'retry' && outcome.status === 429) {
      // Every sender of this URL waits out the pause, not only the one that was told.
      this.#pacer.holdUntil(key, this.#clock() + (outcome.retryAfterMs ?? this.#pacer.intervalMs));
    }
    return outcome;
  }

  async #post(url: URL, body: string): Promise<DeliveryOutcome> {
    try {
      // Redirects are not followed: the URL is the credential, and Slack's webhooks never redirect.
      const response = await this.#transport.send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body,
      });
      const text = response.text.slice(0, MAX_BODY_CHARS);
      return classifySlackResponse(response.status, text, retryAfterMs(response.headers, this.#clock()));
    } catch (error) {
      // `transport.send` throws nothing but HttpTransportError; its code, never its message, is quoted.
      const failure = error as HttpTransportError;
      if (failure instanceof HttpTimeoutError) {
        return { kind: 'retry', reason: `Slack did not answer within ${formatSeconds(this.#timeoutMs)}` };
      }
      const why = failure.code === undefined ? 'network failure' : networkWords(failure.code);
      return { kind: 'retry', reason: `could not reach Slack (${why})` };
    }
  }

  /** A last guard: whatever a reason was built from, the webhook URL does not leave in it. */
  #redact(reason: string): string {
    return this.#transport.redact(reason).replace(/\s+/g, ' ').trim();
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
