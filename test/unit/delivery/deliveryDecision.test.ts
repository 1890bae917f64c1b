// The one decision both runtimes execute after an attempt: delivered, retry after the schedule's step
// (never before Retry-After), dead (at once, or once the schedule is spent), or the subscriber gone.
import { describe, expect, it } from 'vitest';
import { decideDelivery } from '../../../shared/delivery/deliveryDecision.js';

/** No jitter: 1 - 20 % + 40 % × 0.5 = 1. */
const MIDDLE = () => 0.5;
const RETRY = { kind: 'retry', reason: 'server error (500)', status: 500 } as const;

describe('decideDelivery', () => {
  it.each([
    [1, 5_000],
    [2, 300_000],
    [3, 1_800_000],
    [4, 7_200_000],
    [5, 18_000_000],
    [6, 36_000_000],
    [7, 36_000_000],
  ])('after attempt %i retries in the schedule step of %i ms', (attempts, delayMs) => {
    expect(decideDelivery(RETRY, attempts, MIDDLE)).toEqual({ kind: 'retry', reason: RETRY.reason, delayMs });
  });

  it('gives up once the schedule is spent, saying so with the last reason', () => {
    expect(decideDelivery(RETRY, 8, MIDDLE)).toEqual({
      kind: 'dead',
      exhausted: true,
      reason: 'retry schedule spent after 8 attempts; last: server error (500)',
    });
  });

  it('waits at least what Retry-After asked for', () => {
    expect(decideDelivery({ ...RETRY, retryAfterMs: 90_000 }, 1, MIDDLE)).toMatchObject({ delayMs: 90_000 });
    expect(decideDelivery({ ...RETRY, retryAfterMs: 90_000 }, 2, MIDDLE)).toMatchObject({ delayMs: 300_000 });
  });

  it('jitters by ±20 %', () => {
    expect(decideDelivery(RETRY, 2, () => 0)).toMatchObject({ delayMs: 240_000 });
    expect(decideDelivery(RETRY, 2, () => 0.999_999)).toMatchObject({ delayMs: 360_000 });
  });

  it('dead-letters a permanent refusal at once, and disables on gone', () => {
    expect(decideDelivery({ kind: 'dead', reason: 'HTTP 400' }, 1)).toEqual({
      kind: 'dead',
      reason: 'HTTP 400',
      exhausted: false,
    });
    expect(decideDelivery({ kind: 'gone', reason: 'HTTP 410' }, 3)).toEqual({
      kind: 'gone',
      reason: 'HTTP 410',
    });
    expect(decideDelivery({ kind: 'delivered', status: 204 }, 1)).toEqual({ kind: 'delivered' });
  });
});
