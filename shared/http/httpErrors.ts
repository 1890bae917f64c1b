// Typed failures of an HTTP request that got no usable answer: the server could not be reached or the
// connection broke (HttpNetworkError), or a timeout ran out (HttpTimeoutError). The transport raises
// them (transport.ts, mapped in transportFailure.ts); the Admin API client turns them into its own errors
// and the senders into delivery outcomes. Messages name the server by origin only, and quote nothing the
// transport's redactor has not cut.
import { TransientError } from '../errors/transientError.js';

/**
 * What a timeout waited for: the connection, the response headers, the next piece of the body, or the
 * attempt as a whole (the caller's own bound over all three).
 */
export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'attempt';

export interface HttpFailureDetails {
  /** Scheme, host and port of the server; never a path or query, which can carry a token. */
  origin: string;
  /** The socket's or the HTTP library's code (ECONNREFUSED, UND_ERR_SOCKET, …), when it gave one. */
  code?: string | undefined;
  /** The failure in a few words, safe to quote: its code, or its message redacted and on one line. */
  detail: string;
  cause: unknown;
}

/** A server that could not be reached may be reached on the next try; the message names it. */
export class HttpTransportError extends TransientError {
  readonly origin: string;
  readonly code: string | undefined;
  readonly detail: string;

  constructor(message: string, details: HttpFailureDetails) {
    super(message, { cause: details.cause });
    this.origin = details.origin;
    this.code = details.code;
    this.detail = details.detail;
  }
}

/** No answer: the connection was refused or cut, the name did not resolve, TLS failed, … */
export class HttpNetworkError extends HttpTransportError {
  constructor(details: HttpFailureDetails) {
    super(`cannot reach ${details.origin}: ${details.detail}`, details);
  }
}

export class HttpTimeoutError extends HttpTransportError {
  readonly phase: TimeoutPhase;
  /** The limit that ran out, when the transport set it (a caller's own signal may time out too). */
  readonly timeoutMs: number | undefined;

  constructor(phase: TimeoutPhase, timeoutMs: number | undefined, details: HttpFailureDetails) {
    const within = timeoutMs === undefined ? 'in time' : `within ${timeoutMs} ms`;
    super(`${details.origin} ${TIMEOUT_WORDS[phase]} ${within}`, details);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

const TIMEOUT_WORDS: Record<TimeoutPhase, string> = {
  connect: 'accepted no connection',
  headers: 'sent no response headers',
  body: 'sent nothing more of the body',
  attempt: 'gave no complete answer',
};
