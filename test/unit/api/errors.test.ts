import { describe, expect, it } from 'vitest';
import {
  AdminApiError,
  BadRequestError,
  errorFromResponse,
  errorFromTransportFailure,
  FixByHandApiError,
  ForbiddenError,
  ForeignLinkError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  PaginationError,
  RateLimitedError,
  RequestBudgetExhaustedError,
  type RequestContext,
  RetryableApiError,
  ServerError,
  TimeoutError,
  TokenRejectedError,
  UnauthorizedError,
  UnexpectedStatusError,
  ValidationError,
} from '../../../shared/api/errors.js';
import { HttpNetworkError, HttpTimeoutError, type TimeoutPhase } from '../../../shared/http/httpErrors.js';

const context: RequestContext = { organization: 'Escola Norte', endpoint: 'GET /orders?status=pending' };

/** What cures it, as its class says: the one thing every caller branches on. */
type Cure = 'retry' | 'a new token' | 'a fix by hand' | 'neither';

function cureOf(error: AdminApiError): Cure {
  if (error instanceof RetryableApiError) return 'retry';
  if (error instanceof TokenRejectedError) return 'a new token';
  if (error instanceof FixByHandApiError) return 'a fix by hand';
  return 'neither';
}

describe('errorFromResponse', () => {
  it.each<[number, new (...args: never[]) => AdminApiError, Cure]>([
    [400, BadRequestError, 'a fix by hand'],
    [401, UnauthorizedError, 'a new token'],
    [403, ForbiddenError, 'a new token'],
    [404, NotFoundError, 'a fix by hand'],
    [422, ValidationError, 'neither'],
    [429, RateLimitedError, 'retry'],
    [500, ServerError, 'retry'],
    [502, ServerError, 'retry'],
    [503, ServerError, 'retry'],
    [504, ServerError, 'retry'],
    [409, UnexpectedStatusError, 'neither'],
    [418, UnexpectedStatusError, 'neither'],
    [304, UnexpectedStatusError, 'neither'],
  ])('maps status %i to %o, which %s cures', (status, errorClass, cure) => {
    const error = errorFromResponse(context, status, undefined, undefined);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error.name).toBe(errorClass.name);
    expect(error.status).toBe(status);
    expect(cureOf(error)).toBe(cure);
  });

  it('classifies a rejected token by its class alone: a fix by hand, never a retry, and no flag beside it', () => {
    for (const status of [401, 403]) {
      const error = errorFromResponse(context, status, undefined, undefined);
      expect(error).toBeInstanceOf(TokenRejectedError);
      expect(error).toBeInstanceOf(FixByHandApiError);
      expect(error).not.toBeInstanceOf(RetryableApiError);
      expect(error).not.toHaveProperty('retryable');
    }
  });

  it.each([400, 401, 403, 404, 422, 429, 500, 418])(
    'names the organization, the endpoint and the status %i in the message',
    (status) => {
      const error = errorFromResponse(context, status, undefined, undefined);
      expect(error.message).toMatch(/^Escola Norte: /);
      expect(error.message).toContain('on GET /orders?status=pending');
      expect(error.message).toContain(`(${status})`);
      expect(error.organization).toBe('Escola Norte');
      expect(error.endpoint).toBe('GET /orders?status=pending');
    },
  );

  it('carries the field errors of a 422 and lists them in the message', () => {
    const errors = {
      start_date: ['The start date is not a valid date.'],
      status: ['Unknown status.', 'Try again.'],
    };
    const error = errorFromResponse(context, 422, { success: false, message: 'Invalid', errors }, undefined);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual(errors);
    expect(error.message).toContain('start_date: The start date is not a valid date.');
    expect(error.message).toContain('status: Unknown status. Try again.');
  });

  it('falls back to the server message for a 422 without field errors', () => {
    const error = errorFromResponse(context, 422, { message: 'The given data was invalid.' }, undefined);
    expect((error as ValidationError).fieldErrors).toEqual({});
    expect(error.message).toContain('The given data was invalid.');
  });

  it('passes the server message on for 400 and 5xx', () => {
    expect(
      errorFromResponse(context, 400, { message: 'Organization header missing' }, undefined).message,
    ).toContain('Organization header missing');
    expect(errorFromResponse(context, 500, { message: 'Server Error' }, undefined).message).toContain(
      ': Server Error',
    );
  });

  it('keeps the Retry-After wait of a 429 and states it in whole seconds', () => {
    const error = errorFromResponse(context, 429, undefined, 2_500) as RateLimitedError;
    expect(error.retryAfterMs).toBe(2_500);
    expect(error.message).toContain('retry after 3 s');
  });

  it('leaves retryAfterMs undefined when the server did not say', () => {
    const error = errorFromResponse(context, 429, undefined, undefined) as RateLimitedError;
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).not.toContain('retry after');
  });
});

describe('network errors', () => {
  it('names the cause in the words check-config --ping uses, and is retryable', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new NetworkError(context, cause);
    expect(error.message).toBe(
      'Escola Norte: network failure: connection refused: nothing listens at that address and port on GET /orders?status=pending',
    );
    expect(error).toBeInstanceOf(RetryableApiError);
    expect(error.cause).toBe(cause);
    expect(error.status).toBeUndefined();
  });

  it('uses the cause message when it has no code', () => {
    expect(new NetworkError(context, new Error('socket hang up')).message).toContain('socket hang up');
  });

  it.each<[TimeoutPhase, string]>([
    ['connect', 'timed out waiting for the connection'],
    ['headers', 'timed out waiting for the headers'],
    ['body', 'timed out waiting for the body'],
    ['attempt', 'timed out waiting for the response'],
  ])('a %s timeout is a retryable NetworkError saying what it waited for', (phase, text) => {
    const error = new TimeoutError(context, new Error('timeout'), phase);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.name).toBe('TimeoutError');
    expect(error).toBeInstanceOf(RetryableApiError);
    expect(error.message).toContain(text);
  });
});

describe('errorFromTransportFailure', () => {
  const origin = 'https://api.example';

  it('maps a transport timeout to TimeoutError of the same phase, quoting its code', () => {
    const failure = new HttpTimeoutError('headers', 15_000, {
      origin,
      code: 'UND_ERR_HEADERS_TIMEOUT',
      detail: 'UND_ERR_HEADERS_TIMEOUT',
      cause: new Error('timeout'),
    });
    const error = errorFromTransportFailure(context, failure);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      'Escola Norte: timed out waiting for the headers: UND_ERR_HEADERS_TIMEOUT on GET /orders?status=pending',
    );
    expect(error.cause).toBe(failure);
  });

  it("maps a network failure to NetworkError quoting the transport's detail, which is already redacted", () => {
    const failure = new HttpNetworkError({ origin, detail: 'socket hang up', cause: new Error('raw') });
    const error = errorFromTransportFailure(context, failure);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('Escola Norte: network failure: socket hang up on GET /orders?status=pending');
  });

  it('maps anything else thrown on the way to NetworkError too', () => {
    expect(errorFromTransportFailure(context, new TypeError('boom'))).toBeInstanceOf(NetworkError);
  });
});

describe('other errors', () => {
  it('ForeignLinkError prints the origin and path of the link, never its query', () => {
    const error = new ForeignLinkError(context, 'https://evil.example/steal?token=abc123&page=2');
    expect(error.message).toContain('https://evil.example/steal');
    expect(error.message).not.toContain('abc123');
    expect(cureOf(error)).toBe('neither');
  });

  it('ForeignLinkError copes with a link that is not a URL', () => {
    expect(new ForeignLinkError(context, 'not a url').message).toContain('an unparseable URL');
  });

  it('MalformedResponseError names the status and the problem', () => {
    const error = new MalformedResponseError(context, 200, 'body is not JSON');
    expect(error.message).toBe(
      'Escola Norte: malformed response (200): body is not JSON on GET /orders?status=pending',
    );
    expect(cureOf(error)).toBe('neither');
  });

  it('RequestBudgetExhaustedError states the limit and when budget frees up', () => {
    const error = new RequestBudgetExhaustedError(context, 50, 1_234);
    expect(error.message).toContain('50/min');
    expect(error.retryAtMs).toBe(1_234);
  });

  it('PaginationError is an AdminApiError that is not retried', () => {
    const error = new PaginationError('loop', context);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(cureOf(error)).toBe('neither');
    expect(error.name).toBe('PaginationError');
  });
});
