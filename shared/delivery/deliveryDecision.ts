// What to do after a delivery attempt, decided once for both runtimes: the SQLite outbox records it, the
// SQS handlers turn it into a message's visibility or a dead letter.
import type { DeliveryOutcome } from './deliveryOutcome.js';
import { deliveryRetryDelay } from './retrySchedule.js';

export type DeliveryDecision =
  | { kind: 'delivered' }
  /** Try again after `delayMs`: the schedule's step, never sooner than the receiver's Retry-After. */
  | { kind: 'retry'; reason: string; delayMs: number }
  /** No more attempts for this event; `exhausted` when it was the retry schedule that ran out. */
  | { kind: 'dead'; reason: string; exhausted: boolean }
  /** The receiver is gone for good: disable the subscriber. */
  | { kind: 'gone'; reason: string }
  /**
   * A person must fix the subscriber: keep this delivery (no attempt counted) and the others, and try again
   * after `delayMs`, a probe, until it answers again.
   */
  | { kind: 'paused'; reason: string; action: string; delayMs: number };

/** How often a paused subscriber is tried again, to see whether it was fixed. */
export const PAUSED_PROBE_MS = 60_000;

/**
 * @param attemptsMade attempts so far, the one just made included
 * @param random a number in [0, 1) for the schedule's jitter, injected so tests can pin it
 */
export function decideDelivery(
  outcome: DeliveryOutcome,
  attemptsMade: number,
  random: () => number = Math.random,
): DeliveryDecision {
  switch (outcome.kind) {
    case 'delivered':
      return { kind: 'delivered' };
    case 'gone':
      return { kind: 'gone', reason: outcome.reason };
    case 'paused':
      return { kind: 'paused', reason: outcome.reason, action: outcome.action, delayMs: PAUSED_PROBE_MS };
    case 'dead':
      return { kind: 'dead', reason: outcome.reason, exhausted: false };
    case 'retry': {
      const delayMs = deliveryRetryDelay(attemptsMade, outcome.retryAfterMs, random);
      if (delayMs === undefined) {
        return {
          kind: 'dead',
          reason: `retry schedule spent after ${attemptsMade} attempts; last: ${outcome.reason}`,
          exhausted: true,
        };
      }
      return { kind: 'retry', reason: outcome.reason, delayMs };
    }
  }
}
