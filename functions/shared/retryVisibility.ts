// How long a message whose delivery failed transiently stays hidden on its queue before the next attempt:
// the shared retry schedule, counted in SQS receives, within what SQS accepts.
import { nextRetryDelay } from '../../shared/delivery/retrySchedule.js';
import { MAX_RETRY_VISIBILITY_SECONDS } from './deliveryQueueContract.js';

/**
 * Whole seconds to hide the message, or undefined when the schedule is spent (it goes to the DLQ).
 * @param receiveCount the record's ApproximateReceiveCount: attempts made, this one included
 * @param retryAfterMs what the receiver asked for (Retry-After); the wait is never shorter, unless SQS's
 *   limit forbids it
 */
export function retryVisibilitySeconds(
  receiveCount: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const delayMs = nextRetryDelay(receiveCount, retryAfterMs, random);
  if (delayMs === undefined) return undefined;
  return Math.min(Math.ceil(delayMs / 1000), MAX_RETRY_VISIBILITY_SECONDS);
}
