// Typed Admin API errors, one class per failure, grouped by what cures it (the class says it, no flag
// beside it): a RetryableApiError may pass if the same request is sent again soon; a FixByHandApiError
// fails every request the same way until a person fixes the connection, and a TokenRejectedError is the
// one of those a new token fixes. And the factories to them from an HTTP status and from a transport
// failure. Every message names the organization, endpoint and status; none ever carries the token.

import { networkWords } from '../errors/networkWords.js';
import { TransientError } from '../errors/transientError.js';
import { HttpTimeoutError, HttpTransportError, type TimeoutPhase } from '../http/httpErrors.js';
import type { ErrorBody } from './envelope.js';

/** Where a failure happened: who we asked for, and what we asked. */
export interface RequestContext {
  /** Organization name when known, else its uuid. */
  organization: string;
  /** Method, path and query relative to the base URL, e.g. `GET /orders?status=pending&page=2`. */
  endpoint: string;
}

/**
 * Exit 1 for every one: the API or the network failed, or refused what the token may do, and the message
 * names the organization, the endpoint and what to check.
 */
export class AdminApiError extends TransientError {
  readonly organization: string;
  readonly endpoint: string;
  readonly status: number | undefined;
  /** How long the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(
    detail: string,
    context: RequestContext,
    options?: { status?: number; cause?: unknown; retryAfterMs?: number | undefined },
  ) {
    super(`${context.organization}: ${detail} on ${context.endpoint}`, options);
    this.organization = context.organization;
    this.endpoint = context.endpoint;
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/**
 * Repeating the same request soon may succeed (a rate limit, the server failing, the network): the client
 * retries it within the cycle (retryPolicy.ts), and a cycle it fails is weather.
 */
export abstract class RetryableApiError extends AdminApiError {}

/**
 * The API refuses what the connection asks for (the organization's uuid, its token, the base URL) whatever
 * the listing: no retry and no other listing helps, only a person fixing the config or the token. A cycle
 * stops at the first one (walkListing.ts, failsEveryListing).
 */
export abstract class FixByHandApiError extends AdminApiError {}

/**
 * The API rejected the token (401) or its access to this organization (403): a revoked token, not a network
 * blip. Only a new token (or access given on the API side) cures it, so the organization is marked
 * "token rejected: put a new token" in its health and tried again slowly (shared/contracts/tokenRejected.ts),
 * while the others carry on.
 */
export abstract class TokenRejectedError extends FixByHandApiError {}

export class BadRequestError extends FixByHandApiError {
  constructor(context: RequestContext, serverMessage?: string) {
    super(
      `request refused as malformed (400)${suffix(serverMessage)}; check the organization uuid`,
      context,
      { status: 400 },
    );
  }
}

export class UnauthorizedError extends TokenRejectedError {
  constructor(context: RequestContext) {
    super('token rejected (401); check the API token for this organization', context, { status: 401 });
  }
}

export class ForbiddenError extends TokenRejectedError {
  constructor(context: RequestContext) {
    super('token not permitted to read this organization (403)', context, { status: 403 });
  }
}

export class NotFoundError extends FixByHandApiError {
  constructor(context: RequestContext) {
    super('not found (404); check that the base URL ends in /api/v1/admin', context, { status: 404 });
  }
}

export class ValidationError extends AdminApiError {
  /** Field name → messages, as the API's `errors` map gives them. */
  readonly fieldErrors: Record<string, string[]>;

  constructor(context: RequestContext, fieldErrors: Record<string, string[]>, serverMessage?: string) {
    const fields = Object.entries(fieldErrors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    const detail = fields.length > 0 ? fields.join('; ') : (serverMessage ?? 'no details given');
    super(`request rejected by validation (422): ${detail}`, context, { status: 422 });
    this.fieldErrors = fieldErrors;
  }
}

export class RateLimitedError extends RetryableApiError {
  constructor(context: RequestContext, retryAfterMs: number | undefined) {
    const wait = retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
    super(`rate limited (429)${wait}`, context, { status: 429, retryAfterMs });
  }
}

export class ServerError extends RetryableApiError {
  constructor(context: RequestContext, status: number, serverMessage?: string, retryAfterMs?: number) {
    super(`server error (${status})${suffix(serverMessage)}`, context, { status, retryAfterMs });
  }
}

export class UnexpectedStatusError extends AdminApiError {
  constructor(context: RequestContext, status: number, serverMessage?: string) {
    super(`unexpected response (${status})${suffix(serverMessage)}`, context, { status });
  }
}

export class NetworkError extends RetryableApiError {
  constructor(context: RequestContext, cause: unknown, detail = 'network failure') {
    super(`${detail}${suffix(causeText(cause))}`, context, { cause });
  }
}

export class TimeoutError extends NetworkError {
  constructor(context: RequestContext, cause: unknown, phase: TimeoutPhase) {
    super(context, cause, `timed out waiting for the ${TIMEOUT_WAITED_FOR[phase]}`);
  }
}

const TIMEOUT_WAITED_FOR: Record<TimeoutPhase, string> = {
  connect: 'connection',
  headers: 'headers',
  body: 'body',
  attempt: 'response',
};

export class MalformedResponseError extends AdminApiError {
  constructor(context: RequestContext, status: number, problem: string, cause?: unknown) {
    super(`malformed response (${status}): ${problem}`, context, { status, cause });
  }
}

/** A pagination link that points away from the listing: refused so the token never leaves the origin. */
export class ForeignLinkError extends AdminApiError {
  constructor(context: RequestContext, link: string) {
    super(`refused to follow links.next to ${safeOrigin(link)}: not the listing's origin and path`, context);
  }
}

export class PaginationError extends AdminApiError {}

export class RequestBudgetExhaustedError extends AdminApiError {
  readonly retryAtMs: number;

  constructor(context: RequestContext, limitPerMinute: number, retryAtMs: number) {
    super(`request budget of ${limitPerMinute}/min for this token is used up`, context);
    this.retryAtMs = retryAtMs;
  }
}

/** Maps a non-2xx response to its error class. */
export function errorFromResponse(
  context: RequestContext,
  status: number,
  body: ErrorBody | undefined,
  retryAfterMs: number | undefined,
): AdminApiError {
  const message = body?.message;
  if (status === 400) return new BadRequestError(context, message);
  if (status === 401) return new UnauthorizedError(context);
  if (status === 403) return new ForbiddenError(context);
  if (status === 404) return new NotFoundError(context);
  if (status === 422) return new ValidationError(context, body?.errors ?? {}, message);
  if (status === 429) return new RateLimitedError(context, retryAfterMs);
  if (status >= 500) return new ServerError(context, status, message, retryAfterMs);
  return new UnexpectedStatusError(context, status, message);
}

/** Maps a request that got no answer (an HttpTransportError, or anything thrown on the way) to its class. */
export function errorFromTransportFailure(context: RequestContext, failure: unknown): NetworkError {
  if (failure instanceof HttpTimeoutError) return new TimeoutError(context, failure, failure.phase);
  return new NetworkError(context, failure);
}

function suffix(text: string | undefined): string {
  return text ? `: ${text}` : '';
}

function causeText(cause: unknown): string | undefined {
  // Already redacted, and a code when there was one: in the words check-config --ping and the senders use.
  if (cause instanceof HttpTransportError)
    return cause.code === undefined ? cause.detail : networkWords(cause.code);
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? networkWords(code) : cause.message;
}

/** Only the origin: a link's query could carry anything, and it is not ours to print. */
function safeOrigin(link: string): string {
  try {
    const url = new URL(link);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'an unparseable URL';
  }
}
