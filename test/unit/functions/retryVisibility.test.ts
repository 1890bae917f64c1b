// How long a transiently failed message stays hidden: the shared retry schedule, counted in SQS receives,
// honouring Retry-After, and never longer than SQS accepts.
import { describe, expect, it } from 'vitest';
import {
  MAX_RECEIVE_COUNT,
  MAX_RETRY_VISIBILITY_SECONDS,
} from '../../../functions/shared/deliveryQueueContract.js';
import { retryVisibilitySeconds } from '../../../functions/shared/retryVisibility.js';
import { RETRY_SCHEDULE_MS } from '../../../shared/delivery/retrySchedule.js';

/** No jitter: 1 - 20 % + 40 % × 0.5 = 1. */
const MIDDLE = () => 0.5;

describe('retryVisibilitySeconds', () => {
  it.each([
    [1, 5],
    [2, 300],
    [3, 1_800],
    [4, 7_200],
    [5, 18_000],
    [6, 36_000],
    [7, 36_000],
  ])('after receive %i waits the schedule step of %i s', (receiveCount, seconds) => {
    expect(retryVisibilitySeconds(receiveCount, undefined, MIDDLE)).toBe(seconds);
  });

  it('is spent after as many receives as the schedule has attempts, which the redrive policy matches', () => {
    expect(MAX_RECEIVE_COUNT).toBe(RETRY_SCHEDULE_MS.length);
    expect(retryVisibilitySeconds(MAX_RECEIVE_COUNT, undefined, MIDDLE)).toBeUndefined();
  });

  it('waits at least what Retry-After asked for', () => {
    expect(retryVisibilitySeconds(1, 90_000, MIDDLE)).toBe(90);
    expect(retryVisibilitySeconds(2, 90_000, MIDDLE)).toBe(300);
  });

  it('jitters by ±20 %', () => {
    expect(retryVisibilitySeconds(2, undefined, () => 0)).toBe(240);
    expect(retryVisibilitySeconds(2, undefined, () => 0.999_999)).toBe(360);
  });

  it('never asks SQS for more than fits in its 12 h limit, measured from the receive', () => {
    expect(retryVisibilitySeconds(7, undefined, () => 0.999_999)).toBe(MAX_RETRY_VISIBILITY_SECONDS);
    expect(retryVisibilitySeconds(1, 2 * 86_400_000, MIDDLE)).toBe(MAX_RETRY_VISIBILITY_SECONDS);
    expect(MAX_RETRY_VISIBILITY_SECONDS).toBeLessThan(43_200);
  });
});
