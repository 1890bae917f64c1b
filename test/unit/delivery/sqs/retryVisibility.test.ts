// How long a transiently failed message stays hidden: the shared engine's delay in whole seconds, counted
// in SQS receives, and never longer than SQS accepts.
import { describe, expect, it } from 'vitest';
import {
  MAX_RECEIVE_COUNT,
  MAX_RETRY_VISIBILITY_SECONDS,
} from '../../../../shared/contracts/deliveryQueueContract.js';
import { decideDelivery } from '../../../../shared/delivery/deliveryDecision.js';
import { RETRY_SCHEDULE_MS } from '../../../../shared/delivery/retrySchedule.js';
import { visibilitySeconds } from '../../../../shared/delivery/sqs/retryVisibility.js';

const MIDDLE = () => 0.5;
const RETRY = { kind: 'retry', reason: 'server error (500)' } as const;

describe('visibilitySeconds', () => {
  it('rounds the delay up to whole seconds', () => {
    expect(visibilitySeconds(4_001)).toBe(5);
    expect(visibilitySeconds(300_000)).toBe(300);
  });

  it('is spent after as many receives as the schedule has attempts, which the redrive policy matches', () => {
    expect(MAX_RECEIVE_COUNT).toBe(RETRY_SCHEDULE_MS.length);
    expect(decideDelivery(RETRY, MAX_RECEIVE_COUNT, MIDDLE).kind).toBe('dead');
  });

  it('never asks SQS for more than fits in its 12 h limit, measured from the receive', () => {
    const longest = decideDelivery(RETRY, 7, () => 0.999_999);
    expect(longest.kind === 'retry' && visibilitySeconds(longest.delayMs)).toBe(MAX_RETRY_VISIBILITY_SECONDS);
    expect(visibilitySeconds(2 * 86_400_000)).toBe(MAX_RETRY_VISIBILITY_SECONDS);
    expect(MAX_RETRY_VISIBILITY_SECONDS).toBeLessThan(43_200);
  });
});
