// How long a message whose delivery failed transiently stays hidden on its queue before the next attempt:
// the shared engine's retry delay in whole seconds, within what SQS accepts.
import { MAX_RETRY_VISIBILITY_SECONDS } from '../../contracts/deliveryQueueContract.js';

export function visibilitySeconds(delayMs: number): number {
  return Math.min(Math.ceil(delayMs / 1000), MAX_RETRY_VISIBILITY_SECONDS);
}
