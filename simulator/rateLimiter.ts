// Requests per minute per token over a sliding 60-second window on the injected clock. Refused requests
// are not counted, so a client that waits as told by Retry-After always gets through.

export const RATE_WINDOW_MS = 60_000;

export type RateDecision =
  | { allowed: true; limit: number; remaining: number }
  | { allowed: false; limit: number; remaining: 0; retryAfterSeconds: number; resetAtMs: number };

export class SlidingWindowRateLimiter {
  private readonly accepted = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number = RATE_WINDOW_MS,
  ) {
    if (!(Number.isInteger(limit) && limit > 0)) {
      throw new RangeError(`requests per minute must be a positive integer, got ${limit}`);
    }
  }

  /** Counts one request by `key` at `nowMs` when the window has room. */
  consume(key: string, nowMs: number): RateDecision {
    const times = this.recent(key, nowMs);
    if (times.length >= this.limit) {
      const oldest = times[0] ?? nowMs;
      const resetAtMs = oldest + this.windowMs;
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
        resetAtMs,
      };
    }
    times.push(nowMs);
    return { allowed: true, limit: this.limit, remaining: this.limit - times.length };
  }

  /** Requests by `key` still inside the window at `nowMs`. */
  used(key: string, nowMs: number): number {
    return this.recent(key, nowMs).length;
  }

  private recent(key: string, nowMs: number): number[] {
    let times = this.accepted.get(key);
    if (!times) {
      times = [];
      this.accepted.set(key, times);
    }
    let expired = 0;
    while (expired < times.length && (times[expired] ?? 0) <= nowMs - this.windowMs) expired += 1;
    if (expired > 0) times.splice(0, expired);
    return times;
  }
}
