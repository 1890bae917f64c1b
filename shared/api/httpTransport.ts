// One GET through the HTTP port, turned into a status, headers and text, or a typed network/timeout
// error. Knows nothing of the API's semantics.
import type { HttpClient, HttpTimeouts, ResponseHeaders } from '../http/httpClient.js';
import { TIMEOUT_CODES } from '../http/httpClient.js';
import { NetworkError, type RequestContext, TimeoutError } from './errors.js';

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 };

/**
 * Pages are fetched one after another, so one socket per origin suffices; with more, undici's pool
 * alternates sequential requests between two sockets (the next request is dispatched before the previous
 * connection is marked free), opening connections it does not need.
 */
export const API_CONNECTIONS = 1;

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

export async function httpGet(
  http: HttpClient,
  url: URL,
  headers: Record<string, string>,
  context: RequestContext,
): Promise<HttpResponse> {
  try {
    const response = await http.request(url, { method: 'GET', headers });
    const text = await response.body.text();
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    throw toNetworkError(error, context);
  }
}

function toNetworkError(error: unknown, context: RequestContext): NetworkError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === TIMEOUT_CODES.connect) return new TimeoutError(context, error, 'connect');
  if (code === TIMEOUT_CODES.headers) return new TimeoutError(context, error, 'headers');
  if (code === TIMEOUT_CODES.body) return new TimeoutError(context, error, 'body');
  return new NetworkError(context, error);
}
