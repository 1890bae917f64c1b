// The HTTP port over an undici Agent of the client's own: its connect timeout, connections kept alive for
// 30 s and, when asked, a cap on connections per origin. The CLI's transport; the Lambdas use Node's fetch
// (fetchHttpClient.ts), so their bundles carry no undici.
import { Agent, request } from 'undici';
import type { HttpClient, HttpClientFactory, HttpRequest, HttpResponse } from './httpClient.js';

export const createUndiciHttpClient: HttpClientFactory = (options) =>
  new UndiciHttpClient(
    new Agent({
      connect: { timeout: options.connectMs },
      headersTimeout: options.headersMs,
      bodyTimeout: options.bodyMs,
      keepAliveTimeout: 30_000,
      ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
    }),
  );

class UndiciHttpClient implements HttpClient {
  readonly #agent: Agent;
  #closed: Promise<void> | undefined;

  constructor(agent: Agent) {
    this.#agent = agent;
  }

  async request(url: URL, { method, headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    // undici's request() follows no redirects.
    const response = await request(url, {
      dispatcher: this.#agent,
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal === undefined ? {} : { signal }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  /** Once; a second close waits for the first. */
  close(): Promise<void> {
    this.#closed ??= this.#agent.close();
    return this.#closed;
  }
}
