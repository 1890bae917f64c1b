import { describe, expect, it } from 'vitest';
import {
  AWS_DEFAULT_POLL_INTERVAL_SECONDS,
  AWS_SMALL_ORGANIZATION_INTERVAL_SECONDS,
  awsIntervalSeconds,
  type IntervalBySizeInput,
} from '../../../shared/contracts/awsPollSettings.js';

/** A school whose 30 pending orders fit in two pages, alone on its token. */
const SMALL: IntervalBySizeInput = {
  pollIntervalSeconds: AWS_DEFAULT_POLL_INTERVAL_SECONDS,
  intervalIsAwsDefault: true,
  pendingPages: 2,
  averageLookups: 0.5,
  organizationsOnToken: 1,
  usablePerMinute: 45,
};

describe('awsIntervalSeconds', () => {
  it('polls a small organization at the default every 15 s', () => {
    expect(awsIntervalSeconds(SMALL)).toBe(AWS_SMALL_ORGANIZATION_INTERVAL_SECONDS);
    expect(awsIntervalSeconds({ ...SMALL, pendingPages: 1 })).toBe(15);
  });

  it('keeps the minute for an organization whose pending takes three pages or more', () => {
    expect(awsIntervalSeconds({ ...SMALL, pendingPages: 3 })).toBe(60);
    expect(awsIntervalSeconds({ ...SMALL, pendingPages: 21 })).toBe(60);
  });

  it('keeps whatever interval a config sets, small or not', () => {
    const set = { ...SMALL, intervalIsAwsDefault: false };
    expect(awsIntervalSeconds({ ...set, pollIntervalSeconds: 120 })).toBe(120);
    expect(awsIntervalSeconds({ ...set, pollIntervalSeconds: 10, pendingPages: 9 })).toBe(10);
  });

  it('keeps an explicit 60 for a small organization: a config that says a minute means a minute', () => {
    expect(awsIntervalSeconds({ ...SMALL, intervalIsAwsDefault: false })).toBe(60);
  });

  it('never lets the small organizations on one token ask for more than it holds together', () => {
    // 8 of them, 3 requests a cycle each: 24 requests a round, 45 a minute → 32 s at the least.
    const eight = awsIntervalSeconds({ ...SMALL, organizationsOnToken: 8 });
    expect(eight).toBe(32);
    expect((8 * 3 * 60) / eight).toBeLessThanOrEqual(45);
    // 20 of them: their round is longer than the minute, which stays the ceiling the pace stretches.
    expect(awsIntervalSeconds({ ...SMALL, organizationsOnToken: 20 })).toBe(60);
  });

  it('counts at least one look-up a cycle, however few the organization needed so far', () => {
    expect(awsIntervalSeconds({ ...SMALL, averageLookups: 0, organizationsOnToken: 10 })).toBe(
      Math.ceil((10 * 3 * 60) / 45),
    );
  });
});
