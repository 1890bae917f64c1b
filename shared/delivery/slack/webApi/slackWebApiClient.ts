// The Slack Web API over the HTTP transport (the adapter of slackWebApi.ts): JSON POSTs with
// `Authorization: Bearer <token>`, paced so Slack has no reason to refuse: chat.postMessage one a second
// per channel, chat.update within Tier 3, and after a 429 no call with that token before its Retry-After
// is over. Pacing is per process and per token (by a hash, so no map holds the token), shared by every
// client of the same token. The token never leaves in a reason: the transport cuts it out of what it quotes.
import { createHash } from 'node:crypto';
import { networkWords } from '../../../errors/networkWords.js';
import type { HttpClientFactory } from '../../../http/httpClient.js';
import { HttpTimeoutError, type HttpTransportError } from '../../../http/httpErrors.js';
import { retryAfterMs } from '../../../http/retryAfter.js';
import { HttpTransport } from '../../../http/transport.js';
import { sleep } from '../../../time/sleep.js';
import { SlackPacer } from '../slackPacer.js';
import { classifySlackApiAnswer, type FixByHandWords } from './classifySlackApiAnswer.js';
import type { SlackApiResult, SlackPostRequest, SlackUpdateRequest, SlackWebApi } from './slackWebApi.js';

/** chat.postMessage: about one message a second per channel. */
export const POST_INTERVAL_MS = 1_000;
/** chat.update is Tier 3: 50+ a minute; 1.2 s apart stays within it. */
export const UPDATE_INTERVAL_MS = 1_200;

/** The process-wide pacing every client of a token shares: posts per channel, updates, and 429 holds. */
export class SlackApiPacing {
  readonly posts = new SlackPacer(POST_INTERVAL_MS);
  readonly updates = new SlackPacer(UPDATE_INTERVAL_MS);
  readonly #heldUntil = new Map<string, number>();

  /** Slack said to wait: no call with the token before `atMs`. */
  hold(tokenKey: string, atMs: number): void {
    this.#heldUntil.set(tokenKey, Math.max(atMs, this.#heldUntil.get(tokenKey) ?? atMs));
  }

  heldFor(tokenKey: string, nowMs: number): number {
    return Math.max(0, (this.#heldUntil.get(tokenKey) ?? nowMs) - nowMs);
  }
}

export const sharedSlackApiPacing = new SlackApiPacing();

export interface SlackWebApiClientOptions {
  /** The bot token (xoxb-…), resolved from its secret. */
  token: string;
  /** e.g. https://slack.com/api, without a trailing slash. */
  apiUrl: string;
  words: FixByHandWords;
  httpClient?: HttpClientFactory;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Longest one call may take. @default 15_000 */
  timeoutMs?: number;
  pacing?: SlackApiPacing;
  /** Longest a call waits for its slot or a 429's pause; beyond it the call is handed back as rate_limited. @default 10_000 */
  maxWaitMs?: number;
}

// Slack's answers are small JSON; a misbehaving peer is not read whole.
const MAX_BODY_BYTES = 64 * 1024;

export class SlackWebApiClient implements SlackWebApi {
  readonly #apiUrl: string;
  readonly #token: string;
  readonly #tokenKey: string;
  readonly #words: FixByHandWords;
  readonly #transport: HttpTransport;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #pacing: SlackApiPacing;
  readonly #maxWaitMs: number;
  readonly #timeoutMs: number;

  constructor(options: SlackWebApiClientOptions) {
    this.#apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.#token = options.token.trim();
    this.#tokenKey = createHash('sha256').update(this.#token).digest('hex').slice(0, 32);
    this.#words = options.words;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
    this.#pacing = options.pacing ?? sharedSlackApiPacing;
    this.#maxWaitMs = options.maxWaitMs ?? 10_000;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#transport = new HttpTransport({
      timeouts: { connectMs: this.#timeoutMs, headersMs: this.#timeoutMs, bodyMs: this.#timeoutMs },
      attemptTimeoutMs: this.#timeoutMs,
      ...(options.httpClient === undefined ? {} : { httpClient: options.httpClient }),
      secrets: [{ value: this.#token, mask: '[bot token]' }],
    });
  }

  postMessage(request: SlackPostRequest): Promise<SlackApiResult> {
    const body = {
      channel: request.channel,
      text: request.text,
      blocks: request.blocks,
      // Links and names are the kitchen's data, never unfurled or turned into mentions.
      unfurl_links: false,
      unfurl_media: false,
      ...(request.threadTs === undefined ? {} : { thread_ts: request.threadTs }),
      ...(request.broadcast && request.threadTs !== undefined ? { reply_broadcast: true } : {}),
    };
    return this.#call('chat.postMessage', body, this.#pacing.posts, `${this.#tokenKey}:${request.channel}`);
  }

  update(request: SlackUpdateRequest): Promise<SlackApiResult> {
    const body = { channel: request.channel, ts: request.ts, text: request.text, blocks: request.blocks };
    return this.#call('chat.update', body, this.#pacing.updates, this.#tokenKey);
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  async #call(method: string, body: object, pacer: SlackPacer, slotKey: string): Promise<SlackApiResult> {
    const held = this.#pacing.heldFor(this.#tokenKey, this.#clock());
    if (held > this.#maxWaitMs) return this.#busy(method, held);
    // The pause first, then the slot counted from the end of it.
    const waitMs = pacer.reserve(slotKey, this.#clock() + held, this.#maxWaitMs - held);
    if (waitMs === undefined) return this.#busy(method, held + pacer.waitFor(slotKey, this.#clock() + held));
    if (held + waitMs > 0) await this.#sleep(held + waitMs);
    const result = await this.#send(method, body);
    if (!result.ok && result.failure.kind === 'rate_limited') {
      // Every call with this token waits it out, not only the one that was told.
      this.#pacing.hold(this.#tokenKey, this.#clock() + result.failure.retryAfterMs);
    }
    return result.ok
      ? result
      : { ok: false, failure: { ...result.failure, reason: this.#redact(result.failure.reason) } };
  }

  #busy(method: string, waitMs: number): SlackApiResult {
    return {
      ok: false,
      failure: {
        kind: 'rate_limited',
        reason: `held back to pace ${method} (Slack's rate limits, or the pause Slack asked for); next slot in ${Math.ceil(waitMs / 1000)} s`,
        retryAfterMs: waitMs,
      },
    };
  }

  async #send(method: string, body: object): Promise<SlackApiResult> {
    try {
      const response = await this.#transport.send(new URL(`${this.#apiUrl}/${method}`), {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: `Bearer ${this.#token}`,
        },
        body: JSON.stringify(body),
        read: { excerptBytes: MAX_BODY_BYTES },
      });
      return classifySlackApiAnswer(
        method,
        response.status,
        response.text,
        retryAfterMs(response.headers, this.#clock()),
        this.#words,
      );
    } catch (error) {
      const failure = error as HttpTransportError;
      if (failure instanceof HttpTimeoutError) {
        return {
          ok: false,
          failure: {
            kind: 'transient',
            reason: `Slack did not answer ${method} within ${Math.round(this.#timeoutMs / 1000)} s`,
          },
        };
      }
      const why = failure.code === undefined ? 'network failure' : networkWords(failure.code);
      return { ok: false, failure: { kind: 'transient', reason: `could not reach Slack (${why})` } };
    }
  }

  #redact(reason: string): string {
    return this.#transport.redact(reason).replace(/\s+/g, ' ').trim();
  }
}
