// The one place that says what a failed HTTP request was: the codes undici and Node give (UND_ERR_*,
// ETIMEDOUT, ECONNREFUSED, …) and the AbortError and TimeoutError of a fetch signal, turned into the typed
// errors of httpErrors.ts. Both adapters of the port fail with these codes (httpClient.ts).
import { excerpt } from '../text/excerpt.js';
import { type HttpTimeouts, TIMEOUT_CODES } from './httpClient.js';
import {
  HttpNetworkError,
  HttpTimeoutError,
  type HttpTransportError,
  type TimeoutPhase,
} from './httpErrors.js';

/** What the transport knew when the request failed. */
export interface FailedRequest {
  url: URL;
  /** The limits in force, to say which one ran out. */
  timeouts: HttpTimeouts & { attemptMs?: number | undefined };
  /** Whether the transport's own bound on the attempt as a whole had run out. */
  attemptTimedOut: boolean;
  /** Cuts the secrets of the request from a message before it is quoted. */
  redact: (text: string) => string;
}

/** How much of a message the detail of an error without a code quotes. */
const DETAIL_CHARS = 200;

const PHASE_OF_CODE: Record<string, Exclude<TimeoutPhase, 'attempt'>> = {
  [TIMEOUT_CODES.connect]: 'connect',
  [TIMEOUT_CODES.headers]: 'headers',
  [TIMEOUT_CODES.body]: 'body',
  // The operating system gave up on the TCP handshake before undici's own connect timeout.
  ETIMEDOUT: 'connect',
};

export function transportFailure(error: unknown, request: FailedRequest): HttpTransportError {
  const code = codeOf(error);
  const details = { origin: request.url.origin, code, detail: detailOf(error, code, request), cause: error };
  // Our bound on the attempt wins: whichever phase was under way when it ran out, the attempt took too long.
  if (request.attemptTimedOut || nameOf(error) === 'TimeoutError') {
    return new HttpTimeoutError('attempt', request.timeouts.attemptMs, details);
  }
  const phase = code === undefined ? undefined : PHASE_OF_CODE[code];
  if (phase === undefined) return new HttpNetworkError(details);
  // ETIMEDOUT is the system's limit, not one of ours.
  const limit = code === 'ETIMEDOUT' ? undefined : request.timeouts[`${phase}Ms`];
  return new HttpTimeoutError(phase, limit, details);
}

/** A code such as ECONNREFUSED or UND_ERR_SOCKET, never free text: a message can name the URL. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : undefined;
}

function nameOf(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function detailOf(error: unknown, code: string | undefined, request: FailedRequest): string {
  if (code !== undefined) return code;
  if (nameOf(error) === 'AbortError') return 'aborted';
  const message = error instanceof Error ? error.message : String(error);
  return excerpt(request.redact(message), DETAIL_CHARS) || 'network failure';
}
