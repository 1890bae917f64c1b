// Delivers events to one Slack subscriber through its incoming webhook: formats the message, waits for
// the webhook's pacing slot, POSTs the JSON through the HTTP port and turns the answer into a DeliveryOutcome.
// The webhook URL is the credential, so no reason ever carries it.
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import { createFetchHttpClient } from '../../http/fetchHttpClient.js';
import { type HttpClient, type HttpClientFactory, TIMEOUT_CODES } from '../../http/httpClient.js';
import { retryAfterMs } from '../../http/retryAfter.js';
import { sleep } from '../../time/sleep.js';
import { USER_AGENT } from '../../version.js';
import type { DeliveryOutcome, EventSender } from '../deliveryOutcome.js';
import { SlackWebhookUrlError } from '../errors.js';
import { formatSlackMessage } from './slackMessage.js';
import { type SlackPacer, sharedSlackPacer } from './slackPacer.js';
import { classifySlackResponse } from './slackResponse.js';
import { parseSlackWebhookUrl } from './slackWebhookUrl.js';

export interface SlackSenderOptions {
  subscriberId: string;
  /** The incoming-webhook URL, resolved from its secret. */
  webhookUrl: string;
  /** The environment variable or secret that holds the URL, named when the URL is refused. */
  webhookUrlSecret?: string;
  includeContactDetails: boolean;
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
  readonly #http: HttpClient;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #timeoutMs: number;
  readonly #pacer: SlackPacer;
  readonly #maxPaceWaitMs: number;
  readonly #secrets: string[];

  constructor(options: SlackSenderOptions) {
    this.subscriberId = options.subscriberId;
    const url = parseSlackWebhookUrl(options.webhookUrl);
    // Refused here, never discovered by sending: a URL without a scheme is a setting to fix, not a gone channel.
    if (!url) throw new SlackWebhookUrlError(options.subscriberId, options.webhookUrlSecret);
    this.#url = url;
    this.#includeContactDetails = options.includeContactDetails;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#pacer = options.pacer ?? sharedSlackPacer;
    this.#maxPaceWaitMs = options.maxPaceWaitMs ?? 10_000;
    this.#http = (options.httpClient ?? createFetchHttpClient)({
      connectMs: this.#timeoutMs,
      headersMs: this.#timeoutMs,
      bodyMs: this.#timeoutMs,
    });
    // Every form the secret could take in a message: the URL as given, as parsed, and its path (which
    // holds the token of a hooks.slack.com URL).
    this.#secrets = [options.webhookUrl, this.#url.href, this.#url.pathname + this.#url.search]
      .filter((secret): secret is string => secret !== undefined && secret.length > 1)
      .sort((a, b) => b.length - a.length);
  }

  async send(event: NotifierEvent): Promise<DeliveryOutcome> {
    const outcome = await this.#send(event);
    return 'reason' in outcome ? { ...outcome, reason: this.#redact(outcome.reason) } : outcome;
  }

  /** Closes the connections its HTTP client holds. */
  async close(): Promise<void> {
    await this.#http.close();
  }

  async #send(event: NotifierEvent): Promise<DeliveryOutcome> {
    const url = this.#url;
    // Formatted before waiting, so a slot is not spent on an event that cannot be formatted.
    const body = JSON.stringify(formatSlackMessage(eventForSubscriber(event, this.#includeContactDetails)));
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
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      // Redirects are not followed: the URL is the credential, and Slack's webhooks never redirect.
      const response = await this.#http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT },
        body,
        signal,
      });
      const text = (await response.body.text()).slice(0, MAX_BODY_CHARS);
      return classifySlackResponse(response.status, text, retryAfterMs(response.headers, this.#clock()));
    } catch (error) {
      if (signal.aborted || isTimeout(error)) {
        return { kind: 'retry', reason: `Slack did not answer within ${formatSeconds(this.#timeoutMs)}` };
      }
      return { kind: 'retry', reason: `could not reach Slack (${errorCode(error) ?? 'network failure'})` };
    }
  }

  /** A last guard: whatever a reason was built from, the webhook URL does not leave in it. */
  #redact(reason: string): string {
    let safe = reason;
    for (const secret of this.#secrets) safe = safe.split(secret).join('[webhook URL]');
    return safe.replace(/\s+/g, ' ').trim();
  }
}

const TIMEOUT_CODE_SET = new Set<string>(Object.values(TIMEOUT_CODES));

function isTimeout(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && TIMEOUT_CODE_SET.has(code);
}

/** The error's code (ECONNREFUSED, UND_ERR_SOCKET, …), never its message: messages can name the URL. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : undefined;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
