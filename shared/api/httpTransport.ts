// One GET over undici with connection reuse and timeouts, turned into a status, headers and text, or a
// typed network/timeout error. Knows nothing of the API's semantics.
import { Agent, type Dispatcher, request } from 'undici';
import { NetworkError, type RequestContext, TimeoutError } from './errors.js';
import type { ResponseHeaders } from './retryAfter.js';

export interface HttpTimeouts {
  /** @default 5_000 */
  connectMs: number;
  /** Time to the response headers. @default 15_000 */
  headersMs: number;
  /** Longest silence while the body streams. @default 15_000 */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 };

/**
 * A keep-alive connection per origin. Pages are fetched one after another, so one socket suffices; with
 * more, undici's pool alternates sequential requests between two sockets (the next request is dispatched
 * before the previous connection is marked free), opening connections it does not need.
 */
export function createDispatcher(timeouts: HttpTimeouts = DEFAULT_TIMEOUTS): Dispatcher {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 30_000,
    connections: 1,
  });
}

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

export async function httpGet(
  dispatcher: Dispatcher,
  url: URL,
  headers: Record<string, string>,
  context: RequestContext,
): Promise<HttpResponse> {
  try {
    // Redirects are not followed: a redirect could carry the bearer token to another origin.
    const response = await request(url, { dispatcher, method: 'GET', headers });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    throw toNetworkError(error, context);
  }
}

function toNetworkError(error: unknown, context: RequestContext): NetworkError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new TimeoutError(context, error, 'connect');
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return new TimeoutError(context, error, 'headers');
  if (code === 'UND_ERR_BODY_TIMEOUT') return new TimeoutError(context, error, 'body');
  return new NetworkError(context, error);
}
