import { describe, expect, it } from 'vitest';
import { SlidingWindowRateLimiter } from '../../../simulator/rateLimiter.js';

describe('SlidingWindowRateLimiter', () => {
  it('allows the limit within a minute, then refuses with the seconds until the oldest request expires', () => {
    const limiter = new SlidingWindowRateLimiter(3);
    expect(limiter.consume('t', 0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.consume('t', 10_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.consume('t', 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.consume('t', 20_500)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 40,
      resetAtMs: 60_000,
    });
  });

  it('slides: a slot frees exactly when its request is 60 s old', () => {
    const limiter = new SlidingWindowRateLimiter(2);
    limiter.consume('t', 0);
    limiter.consume('t', 30_000);
    expect(limiter.consume('t', 59_999).allowed).toBe(false);
    expect(limiter.consume('t', 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.consume('t', 60_001).allowed).toBe(false);
    expect(limiter.consume('t', 90_000).allowed).toBe(true);
  });

  it('does not count refused requests, so waiting as told always succeeds', () => {
    const limiter = new SlidingWindowRateLimiter(1);
    limiter.consume('t', 0);
    for (let at = 1000; at < 60_000; at += 1000) expect(limiter.consume('t', at).allowed).toBe(false);
    expect(limiter.consume('t', 60_000).allowed).toBe(true);
  });

  it('keeps a separate window per token', () => {
    const limiter = new SlidingWindowRateLimiter(1);
    expect(limiter.consume('a', 0).allowed).toBe(true);
    expect(limiter.consume('b', 0).allowed).toBe(true);
    expect(limiter.consume('a', 1).allowed).toBe(false);
    expect(limiter.used('b', 1)).toBe(1);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new SlidingWindowRateLimiter(0)).toThrow(RangeError);
    expect(() => new SlidingWindowRateLimiter(2.5)).toThrow(RangeError);
  });
});
