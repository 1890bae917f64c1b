// The HTTP plumbing the Admin API client and the webhook and Slack senders share: it makes their HTTP
// client (the port, injected: Node's fetch by default, so a Lambda bundle carries no HTTP library; undici
// in the CLI) with their timeouts, bounds each attempt as a whole when asked, reads as much of the body as
// the caller needs, turns every failure into a typed error (httpErrors.ts, transportFailure.ts) and cuts
// the caller's secrets out of whatever it quotes. What an answer means stays with each caller.
import { type SecretForm, SecretRedactor } from '../text/redactSecrets.js';
import { USER_AGENT } from '../version.js';
import { createFetchHttpClient } from './fetchHttpClient.js';
import type {
  HttpClient,
  HttpClientFactory,
  HttpResponseBody,
  HttpTimeouts,
  ResponseHeaders,
} from './httpClient.js';
import { transportFailure } from './transportFailure.js';

export interface HttpTransportOptions {
  timeouts: HttpTimeouts;
  /** Bounds each request as a whole: connection, headers and body together. @default only each phase's */
  attemptTimeoutMs?: number;
  /** Connections kept open per origin. @default as many as requests in flight */
  maxConnections?: number;
  /** Makes the HTTP client, which the transport owns and closes. @default Node's fetch */
  httpClient?: HttpClientFactory;
  /** What this transport's requests carry that must never be quoted: a token, the forms of a secret URL. */
  secrets?: Iterable<SecretForm | string>;
}

/**
 * How much of the body the caller needs: all of it as text (a failure while reading fails the request),
 * an excerpt of its first bytes, redacted, for a reason (best effort: the status already decided), or
 * none (read and dropped, best effort, so the connection serves the next request).
 */
export type BodyRead = 'text' | { excerptBytes: number } | 'discard';

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Lower-case names; `user-agent` is the notifier's unless given. */
  headers: Record<string, string>;
  body?: string;
  /** @default 'text'; a function chooses by the status */
  read?: BodyRead | ((status: number) => BodyRead);
}

export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  /** The body, its redacted excerpt, or '' when discarded. */
  text: string;
}

export class HttpTransport {
  readonly #http: HttpClient;
  readonly #timeouts: HttpTimeouts;
  readonly #attemptTimeoutMs: number | undefined;
  readonly #redactor: SecretRedactor;

  constructor(options: HttpTransportOptions) {
    this.#timeouts = options.timeouts;
    this.#attemptTimeoutMs = options.attemptTimeoutMs;
    this.#redactor = new SecretRedactor(options.secrets ?? []);
    this.#http = (options.httpClient ?? createFetchHttpClient)({
      ...options.timeouts,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    });
  }

  /**
   * One request and its answer, whatever the status. Redirects are never followed (see HttpClient).
   * @throws HttpNetworkError, HttpTimeoutError (HttpTransportError), and nothing else
   */
  async send(url: URL, request: TransportRequest): Promise<TransportResponse> {
    const attempt = this.#attemptTimeoutMs === undefined ? undefined : new AbortController();
    const timer =
      attempt &&
      setTimeout(
        () => attempt.abort(new DOMException('the attempt timed out', 'TimeoutError')),
        this.#attemptTimeoutMs,
      );
    try {
      const response = await this.#http.request(url, {
        method: request.method,
        headers: { 'user-agent': USER_AGENT, ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(attempt === undefined ? {} : { signal: attempt.signal }),
      });
      const read = typeof request.read === 'function' ? request.read(response.status) : request.read;
      return {
        status: response.status,
        headers: response.headers,
        text: await this.#read(response.body, read ?? 'text'),
      };
    } catch (error) {
      throw transportFailure(error, {
        url,
        timeouts: { ...this.#timeouts, attemptMs: this.#attemptTimeoutMs },
        attemptTimedOut: attempt?.signal.aborted ?? false,
        redact: (text) => this.#redactor.redact(text),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cuts this transport's secrets out of text bound for a message. */
  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  /** Closes the connections its HTTP client holds. */
  close(): Promise<void> {
    return this.#http.close();
  }

  async #read(body: HttpResponseBody, read: BodyRead): Promise<string> {
    if (read === 'text') return body.text();
    if (read === 'discard') {
      await body.dump().catch(() => {});
      return '';
    }
    return this.#redactor.redact(await readPrefix(body, read.excerptBytes));
  }
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
    // An excerpt is a courtesy in a reason; what arrived before the failure is still worth quoting.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
