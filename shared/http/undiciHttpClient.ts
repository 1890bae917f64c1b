// The HTTP port over an undici Agent of the client's own: its connect timeout, connections kept alive for
// 30 s and, when asked, a cap on connections per origin. The CLI's transport; the Lambdas use Node's fetch
// (fetchHttpClient.ts), so their bundles carry no undici.
// undici is imported on the first request: it is most of the CLI's code to compile, and the commands that
// read only the state file (status, events, deliveries) would start slower for nothing.
import type { Agent } from 'undici';
import type {
  HttpClient,
  HttpClientFactory,
  HttpClientOptions,
  HttpRequest,
  HttpResponse,
} from './httpClient.js';

type Undici = typeof import('undici').default;

let undici: Promise<Undici> | undefined;

export const createUndiciHttpClient: HttpClientFactory = (options) => new UndiciHttpClient(options);

class UndiciHttpClient implements HttpClient {
  readonly #options: HttpClientOptions;
  #agent: Promise<Agent> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: HttpClientOptions) {
    this.#options = options;
  }

  async request(url: URL, { method, headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    const [{ request }, agent] = await Promise.all([loadUndici(), this.#agentOnce()]);
    // undici's request() follows no redirects.
    const response = await request(url, {
      dispatcher: agent,
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal === undefined ? {} : { signal }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  /** Once; a second close waits for the first. A client that never sent has no agent to close. */
  close(): Promise<void> {
    this.#closed ??= this.#agent ? this.#agent.then((agent) => agent.close()) : Promise.resolve();
    return this.#closed;
  }

  #agentOnce(): Promise<Agent> {
    const options = this.#options;
    this.#agent ??= loadUndici().then(({ Agent }) => {
      const agent = new Agent({
        connect: { timeout: options.connectMs },
        headersTimeout: options.headersMs,
        bodyTimeout: options.bodyMs,
        keepAliveTimeout: 30_000,
        ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
      });
      // A request after close() gets undici's own "closed" error, as it did before the import was lazy.
      if (this.#closed) void agent.close();
      return agent;
    });
    return this.#agent;
  }
}

/** undici is CommonJS: as an ES module import, bundled or not, its exports are the default export. */
function loadUndici(): Promise<Undici> {
  undici ??= import('undici').then((module) => module.default);
  return undici;
}
