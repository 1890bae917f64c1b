// The HTTP port over Node's own fetch (undici inside Node), so a bundle carries no HTTP library: the
// Lambdas' transport, and the default. Connections are kept alive in Node's global pool. What fetch has
// no option for is done here: the headers and body timeouts (timers that abort), redirects left alone, and
// failures unwrapped to the codes undici gives. The connect timeout is Node's own (10 s), and fetch refuses
// the ports its standard blocks (6000, 6665 to 6669, 10080, …).
import type {
  HttpClient,
  HttpClientFactory,
  HttpRequest,
  HttpResponse,
  HttpResponseBody,
  HttpTimeouts,
} from './httpClient.js';
import { TIMEOUT_CODES } from './httpClient.js';

/** What `dump()` reads before it gives the connection up instead (undici's default). */
const DUMP_LIMIT_BYTES = 128 * 1024;

export const createFetchHttpClient: HttpClientFactory = (options) => new FetchHttpClient(options);

class FetchHttpClient implements HttpClient {
  readonly #timeouts: HttpTimeouts;

  constructor(timeouts: HttpTimeouts) {
    this.#timeouts = timeouts;
  }

  async request(url: URL, { method, headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    const timeout = new AbortController();
    // Counted from the start, so a slow connection is bounded by it too.
    const headersTimer = setTimeout(
      () => timeout.abort(timeoutError('headers', this.#timeouts.headersMs)),
      this.#timeouts.headersMs,
    );
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      });
    } catch (error) {
      throw unwrap(error);
    } finally {
      clearTimeout(headersTimer);
    }
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: new FetchResponseBody(response.body, timeout, this.#timeouts.bodyMs),
    };
  }

  /** The pool is Node's, shared by the process; nothing here is this client's own to close. */
  async close(): Promise<void> {}
}

class FetchResponseBody implements HttpResponseBody {
  readonly #stream: ReadableStream<Uint8Array> | null;
  readonly #timeout: AbortController;
  readonly #silenceMs: number;

  constructor(stream: ReadableStream<Uint8Array> | null, timeout: AbortController, silenceMs: number) {
    this.#stream = stream;
    this.#timeout = timeout;
    this.#silenceMs = silenceMs;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (!this.#stream) return;
    const reader = this.#stream.getReader();
    try {
      while (true) {
        const chunk = await this.#read(reader);
        if (chunk === undefined) return;
        yield chunk;
      }
    } finally {
      // Stopping early (or failing) gives the connection up rather than leave it half read.
      await reader.cancel().catch(() => {});
    }
  }

  async text(): Promise<string> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  async dump(): Promise<void> {
    let size = 0;
    for await (const chunk of this) {
      size += chunk.length;
      if (size >= DUMP_LIMIT_BYTES) break;
    }
  }

  /** The next chunk, or undefined at the end; the silence timer runs only while waiting for it. */
  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | undefined> {
    const timer = setTimeout(
      () => this.#timeout.abort(timeoutError('body', this.#silenceMs)),
      this.#silenceMs,
    );
    try {
      const { done, value } = await reader.read();
      if (!done) return value;
      // Node's pool frees the connection a turn of the event loop after the body ends; a request sent
      // sooner (the next page) would open a second connection instead of reusing this one.
      await new Promise((resolve) => setImmediate(resolve));
      return undefined;
    } catch (error) {
      throw unwrap(error);
    } finally {
      clearTimeout(timer);
    }
  }
}

function timeoutError(phase: 'headers' | 'body', ms: number): Error {
  const message = phase === 'headers' ? `no response headers within ${ms} ms` : `body silent for ${ms} ms`;
  return Object.assign(new Error(message), { code: TIMEOUT_CODES[phase] });
}

/** fetch's "fetch failed" TypeError carries the socket's error, code and all, as its cause. */
function unwrap(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return error instanceof TypeError && cause instanceof Error ? cause : error;
}
