import { describe, expect, it } from 'vitest';
import {
  NetworkError,
  RateLimitedError,
  type RequestContext,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../../../shared/api/errors.js';
import { apiRetryDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../shared/api/retryPolicy.js';

const context: RequestContext = { organization: 'org', endpoint: 'GET /orders' };
const policy: RetryPolicy = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 500, maxDelayMs: 4_000 };
const serverError = new ServerError(context, 503);
const half = () => 0.5;

describe('apiRetryDelay', () => {
  it('backs off exponentially with equal jitter for a 5xx', () => {
    // step = base * 2^(attempts-1), capped; delay = step/2 + random*step/2
    expect([1, 2, 3].map((attempts) => apiRetryDelay(serverError, attempts, 0, policy, half))).toEqual([
      375, 750, 1_500,
    ]);
  });

  it('never waits less than half a step nor more than a whole step', () => {
    expect(apiRetryDelay(serverError, 2, 0, policy, () => 0)).toBe(500);
    expect(apiRetryDelay(serverError, 2, 0, policy, () => 0.999_999)).toBe(1_000);
  });

  it('caps one step at maxDelayMs', () => {
    const roomy = { ...policy, maxAttempts: 20 };
    expect(apiRetryDelay(serverError, 10, 0, roomy, () => 1)).toBe(4_000);
    expect(apiRetryDelay(serverError, 10, 0, roomy, () => 0)).toBe(2_000);
  });

  it('backs off the same way for network failures', () => {
    expect(apiRetryDelay(new NetworkError(context, new Error('reset')), 1, 0, policy, half)).toBe(375);
  });

  it("waits exactly as long as a 429's Retry-After asks, without jitter", () => {
    expect(apiRetryDelay(new RateLimitedError(context, 7_000), 1, 0, policy, () => 0.9)).toBe(7_000);
  });

  it('backs off with jitter for a 429 that gave no wait', () => {
    expect(apiRetryDelay(new RateLimitedError(context, undefined), 1, 0, policy, half)).toBe(375);
  });

  it('gives up once maxAttempts attempts were made', () => {
    expect(apiRetryDelay(serverError, 4, 0, policy, half)).toBe(3_000);
    expect(apiRetryDelay(serverError, 5, 0, policy, half)).toBeUndefined();
  });

  it('gives up when the wait would end after maxElapsedMs', () => {
    expect(apiRetryDelay(serverError, 1, 59_625, policy, half)).toBe(375);
    expect(apiRetryDelay(serverError, 1, 59_626, policy, half)).toBeUndefined();
    expect(apiRetryDelay(new RateLimitedError(context, 61_000), 1, 0, policy, half)).toBeUndefined();
  });

  it.each([
    ['401', new UnauthorizedError(context)],
    ['422', new ValidationError(context, {})],
  ])('never retries a %s', (_status, error) => {
    expect(apiRetryDelay(error, 1, 0, policy, half)).toBeUndefined();
  });

  it('defaults to 4 attempts within 30 s starting at 500 ms', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxAttempts: 4,
      maxElapsedMs: 30_000,
      baseDelayMs: 500,
      maxDelayMs: 8_000,
    });
  });
});
