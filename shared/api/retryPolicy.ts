// A small, explicit retry policy: which failures are retried, how long to wait, and when to give up.
import { type AdminApiError, RetryableApiError } from './errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** No retry is scheduled that would end later than this after the first attempt started. */
  maxElapsedMs: number;
  /** Backoff before the first retry of a 5xx or network failure; doubles each time. */
  baseDelayMs: number;
  /** Ceiling of one backoff step. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  maxElapsedMs: 30_000,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
};

/**
 * The wait before the next attempt of one Admin API request (seconds, within one poll cycle), or
 * undefined to give up.
 * @param attempts attempts made so far (1 after the first failure)
 * @param elapsedMs time since the first attempt started
 * @param random a number in [0, 1), injected so tests can pin the jitter
 */
export function apiRetryDelay(
  error: AdminApiError,
  attempts: number,
  elapsedMs: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!(error instanceof RetryableApiError) || attempts >= policy.maxAttempts) return undefined;
  // The server's own word (429 or 503 with Retry-After) beats our guess.
  const delay = error.retryAfterMs ?? jitteredBackoff(attempts, policy, random);
  return elapsedMs + delay > policy.maxElapsedMs ? undefined : delay;
}

/** "Equal jitter": half the step is fixed so retries never bunch at zero, half is random. */
function jitteredBackoff(attempts: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}
