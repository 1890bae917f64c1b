// `meal-notifier deliveries --stack`: what each Slack or webhook subscriber's dead-letter queue holds, with
// why (the message attributes the delivery function sets), read without taking anything off the queue,
// and how many deliveries wait on each queue. Waiting messages are counted, never read: a receive counts as
// a delivery attempt there.
import type { Config } from '../config/configSchema.js';
import { eventReference, NotifierEventSchema } from '../events/notifierEvent.js';
import type { DeliveryQueues } from './deliveryQueues.js';

export interface DeadLetterEntry {
  subscriberId: string;
  messageId: string;
  /** From the body; undefined when the body is not an event (then `eventType` is `unknown`). */
  eventId: string | undefined;
  eventType: string;
  reference: string;
  /** `dead`, `gone`, `retries_exhausted`, `malformed`, `subscriber_disabled`, or `redrive policy` when
   *  SQS moved it after too many receives (the function never settled it). */
  kind: string;
  reason: string;
  attempts: number | undefined;
  httpStatus: number | undefined;
  deadLetteredAt: string | undefined;
}

/** What waits on a channel's queue: every subscriber of the type together, as SQS counts them. */
export interface QueuedCount {
  channel: 'slack' | 'webhook';
  queued: number;
}

export interface DeadLetterListing {
  deadLetters: DeadLetterEntry[];
  /** Deliveries waiting on each channel's queue (not listed): one count per channel, not per subscriber. */
  queued: QueuedCount[];
  /** What could not be read, one line each. */
  problems: string[];
}

/** What SQS's redrive policy moved carries no reason of ours. */
const REDRIVE_POLICY_KIND = 'redrive policy';

export async function listDeadLetters(
  config: Config,
  queues: DeliveryQueues,
  options: { limitPerQueue: number; withQueued: boolean },
): Promise<DeadLetterListing> {
  const listing: DeadLetterListing = { deadLetters: [], queued: [], problems: [] };
  for (const subscriber of config.subscribers) {
    if (subscriber.type === 'email') continue;
    if (!queues.knows(subscriber.id)) {
      listing.problems.push(`the stack has no queue outputs for subscriber ${subscriber.id}`);
      continue;
    }
    try {
      if (options.withQueued && !listing.queued.some(({ channel }) => channel === subscriber.type)) {
        const queued = await queues.channelQueued(subscriber.id);
        listing.queued.push({ channel: subscriber.type, queued });
      }
      for (const message of await queues.deadLetters(subscriber.id, options.limitPerQueue)) {
        const event = parseEvent(message.body);
        listing.deadLetters.push({
          subscriberId: subscriber.id,
          messageId: message.messageId,
          eventId: event?.id,
          eventType: event?.type ?? 'unknown',
          reference: event === undefined ? '' : eventReference(event),
          kind: message.kind ?? REDRIVE_POLICY_KIND,
          reason:
            message.reason ??
            'moved by the queue after too many receives: the delivery function never settled it (a crash or a timeout; see its log)',
          attempts: message.attempts,
          httpStatus: message.httpStatus,
          deadLetteredAt: message.deadLetteredAt,
        });
      }
    } catch (error) {
      listing.problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return listing;
}

function parseEvent(body: string) {
  try {
    const parsed = NotifierEventSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
