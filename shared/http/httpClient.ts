// The HTTP port under the transport (transport.ts) that the Admin API client and the webhook and Slack
// senders send through: one request and its status, headers and body, bounded by connect, headers and body
// timeouts, failing with one set of codes (turned into typed errors by transportFailure.ts).
// Two adapters: Node's own fetch (fetchHttpClient.ts, the default, which puts no HTTP library in a Lambda
// bundle) and an undici Agent (undiciHttpClient.ts, which the CLI injects for its pool settings).
export interface HttpTimeouts {
  /** Longest wait for the connection. */
  connectMs: number;
  /** Time to the response headers. */
  headersMs: number;
  /** Longest silence while the body streams. */
  bodyMs: number;
}

export interface HttpClientOptions extends HttpTimeouts {
  /** Connections kept open per origin. @default as many as requests in flight */
  maxConnections?: number;
}

/** Makes a client for one owner, which closes it. */
export type HttpClientFactory = (options: HttpClientOptions) => HttpClient;

export interface HttpRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request, or the body being read; the request then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Header values by lower-case name; a repeated header gives an array. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: ResponseHeaders;
  /** Must be read (or dumped), or the connection stays taken. */
  body: HttpResponseBody;
}

export interface HttpResponseBody extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
  /** Reads and drops the body, so the connection can serve the next request. */
  dump(): Promise<void>;
}

export interface HttpClient {
  /**
   * Redirects are never followed: a redirect could carry a token or a signed event to another origin.
   * @throws an Error whose `code` is one of TIMEOUT_CODES, or the socket's (ECONNREFUSED, UND_ERR_SOCKET,
   *   …); a read of the body throws the same way
   */
  request(url: URL, request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** undici's codes, which Node's fetch (undici inside) gives too. */
export const TIMEOUT_CODES = {
  connect: 'UND_ERR_CONNECT_TIMEOUT',
  headers: 'UND_ERR_HEADERS_TIMEOUT',
  body: 'UND_ERR_BODY_TIMEOUT',
} as const;
