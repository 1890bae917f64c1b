// One delivery attempt that always ends in an outcome. A sender reports failures as outcomes; a throw (a
// bug, a sender that cannot be built yet) is a retry with the error recorded, so it never escapes to
// stop a queue, skip a record, or send another subscriber's deliveries twice.
import { type DigestEvent, isDigest } from '../events/digestEvent.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { DeliveryOutcome, EventSender } from './deliveryOutcome.js';

/**
 * @param senderFor the subscriber's sender; undefined when the subscriber is no longer configured
 *   (its deliveries are dead), a throw when it cannot be built now (a secret not set yet: retried)
 */
export async function attemptDelivery(
  senderFor: () => Promise<EventSender | undefined>,
  event: NotifierEvent | DigestEvent,
): Promise<DeliveryOutcome> {
  let sender: EventSender | undefined;
  try {
    sender = await senderFor();
  } catch (error) {
    // Fixable without losing the event: the operator puts or corrects the secret within the schedule.
    return { kind: 'retry', reason: `no sender: ${messageOf(error)}` };
  }
  if (sender === undefined) return { kind: 'dead', reason: 'subscriber is no longer in the config' };
  try {
    if (!isDigest(event)) return await sender.send(event);
    if (sender.sendDigest === undefined)
      return { kind: 'dead', reason: 'only e-mail subscribers take digests' };
    return await sender.sendDigest(event);
  } catch (error) {
    return { kind: 'retry', reason: `the sender failed unexpectedly: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
