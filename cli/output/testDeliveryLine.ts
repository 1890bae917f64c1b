// The one line send-test prints: what the receiver made of the sample, and for a failure what poll would
// do with a real event that failed the same way.
import type { DeliveryOutcome } from '../../shared/delivery/deliveryOutcome.js';
import { eventReference, type NotifierEvent } from '../../shared/events/notifierEvent.js';

const CONSEQUENCE: Record<Exclude<DeliveryOutcome['kind'], 'delivered'>, string> = {
  retry: 'poll would retry a real event on the retry schedule',
  dead: 'poll would not retry a real event: it would become a dead letter',
  gone: 'poll would disable this subscriber and send it nothing more',
  paused: 'poll would pause this subscriber and keep its deliveries until that is done',
};

export function formatTestDeliveryLine(
  subscriberId: string,
  event: NotifierEvent,
  outcome: DeliveryOutcome,
  elapsedMs: number,
): string {
  const what = `${subscriberId} ← test ${event.type} ${eventReference(event)}`;
  if (outcome.kind === 'delivered') {
    const status = outcome.status === undefined ? '' : ` (${outcome.status})`;
    return `${what}: delivered${status} in ${(elapsedMs / 1000).toFixed(1)} s, event id ${event.id}`;
  }
  return `${what}: not delivered, ${outcome.reason}; ${CONSEQUENCE[outcome.kind]}`;
}
