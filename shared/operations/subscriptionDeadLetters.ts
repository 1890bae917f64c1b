// The SNS subscriptions' dead-letter queue of a deployed stack (what SNS could not deliver to an e-mail
// address or a subscriber queue), for `deliveries --stack` and `replay --stack`: which subscriber each
// message was for, as far as the message tells (shared/contracts/snsDeadLetter.ts), and moving a
// subscriber queue's back to that queue alone. The SQS adapter is the CLI's.
//
// Which subscription: an e-mail notification names its subscription, whose address (and a digest's
// `digest` attribute) names the subscriber. A raw one names nothing: it is attributed to the Slack and
// webhook subscribers whose filter matches its event, and moved back only when that is one subscriber,
// since putting it on a queue that had it would deliver it twice. Nothing is ever re-published to the
// topic: that would reach every subscription whose filter matches again, e-mail included.
import type { Config, SubscriberConfig } from '../config/configSchema.js';
import { readSnsDeadLetter, type SnsDeadLetter } from '../contracts/snsDeadLetter.js';
import { matchesFilter } from '../delivery/subscriberFilter.js';
import { eventReference, type NotifierEvent, NotifierEventSchema } from '../events/notifierEvent.js';
import type { DeadLetterEntry } from './listDeadLetters.js';

/** One message of the queue, read without taking it off. */
export interface SubscriptionDeadLetterMessage {
  messageId: string;
  body: string;
  /** RFC 3339: when SNS put it there. */
  sentAt: string | undefined;
}

export interface SubscriptionDeadLetterQueue {
  /** Up to `limit` messages; they stay on the queue. */
  peek(limit: number): Promise<SubscriptionDeadLetterMessage[]>;
  /**
   * Puts each message `destination` names a subscriber for on that subscriber's queue, body and message
   * attributes as SNS left them, then deletes it here; the others stay. Returns the ids moved.
   */
  moveToSubscriberQueues(
    destination: (message: SubscriptionDeadLetterMessage) => string | undefined,
    options: { delaySeconds: number },
  ): Promise<string[]>;
}

/** The stack's subscriptions by ARN (SNS ListSubscriptionsByTopic): what each delivers to. */
export interface SubscriptionEndpoints {
  endpoints(): Promise<ReadonlyMap<string, { protocol: string; endpoint: string }>>;
}

/** Who a message was for, as far as it tells. */
export interface SubscriptionDeadLetterTarget {
  /** The subscribers it may have been for; one when the message tells, none when it names none of the config's. */
  subscriberIds: string[];
  /** Whether `subscriberIds` is certain (one subscriber), or the subscribers whose filter matches. */
  certain: boolean;
  event: NotifierEvent | undefined;
  eventType: string;
  reference: string;
  /** One line: what SNS could not do, and for whom. */
  reason: string;
}

/** The kind of these entries in `deliveries --stack` (beside `dead`, `gone`, `redrive policy`, …). */
export const NOT_DELIVERED_BY_SNS = 'not delivered by SNS';

export function targetOf(
  config: Config,
  deadLetter: SnsDeadLetter,
  context: {
    endpoints: ReadonlyMap<string, { protocol: string; endpoint: string }> | undefined;
    alarmTopicArn: string | undefined;
  },
): SubscriptionDeadLetterTarget {
  if (deadLetter.form === 'raw') {
    const event = parseEvent(deadLetter.body);
    if (event === undefined) {
      return {
        subscriberIds: [],
        certain: false,
        event,
        eventType: 'unknown',
        reference: '',
        reason:
          'SNS could not deliver a message that is not an event (its body is not one); nothing to replay',
      };
    }
    const candidates = config.subscribers.filter(
      (subscriber) =>
        subscriber.type !== 'email' && subscriber.enabled && matchesFilter(subscriber.filter, event),
    );
    const ids = candidates.map(({ id }) => id);
    return {
      subscriberIds: ids,
      certain: ids.length === 1,
      event,
      eventType: event.type,
      reference: eventReference(event),
      reason:
        ids.length === 1
          ? `SNS could not put it on the queue of ${ids[0]} (its queue policy, or the queue, refused it)`
          : `SNS could not put it on a subscriber queue and does not say which; the filter of ${ids.length === 0 ? 'no subscriber of the config' : ids.join(', ')} matches it`,
    };
  }
  const endpoint =
    deadLetter.subscriptionArn === undefined
      ? undefined
      : context.endpoints?.get(deadLetter.subscriptionArn)?.endpoint;
  const recipient = endpoint ?? `subscription ${deadLetter.subscriptionArn ?? '(not named)'}`;
  const base = {
    event: undefined,
    eventType: deadLetter.attributes.type ?? 'unknown',
    reference: deadLetter.subject ?? '',
  };
  if (deadLetter.topicArn !== undefined && deadLetter.topicArn === context.alarmTopicArn) {
    return {
      ...base,
      subscriberIds: [],
      certain: false,
      eventType: 'alarm',
      reason: `SNS could not e-mail an alarm notification to ${recipient}; the alarm's history in CloudWatch has it`,
    };
  }
  const digest = deadLetter.attributes.digest;
  const ids = config.subscribers
    .filter(
      (subscriber): subscriber is Extract<SubscriberConfig, { type: 'email' }> =>
        subscriber.type === 'email' &&
        (digest === undefined || subscriber.id === digest) &&
        endpoint !== undefined &&
        subscriber.to.some((address) => address.toLowerCase() === endpoint.toLowerCase()),
    )
    .map(({ id }) => id);
  return {
    ...base,
    subscriberIds: ids.length > 0 ? ids : digest === undefined ? [] : [digest],
    certain: ids.length === 1,
    reason: `SNS could not e-mail ${recipient}${digest === undefined ? '' : ' (a digest)'}; e-mail is sent only through the topic, which would e-mail every matching recipient again: forward it by hand (--json has its text), then delete it (docs/aws.md, "Operate it")`,
  };
}

/** Every message of the queue (up to `limit`) as a dead-letter entry of `deliveries --stack`. */
export async function listSubscriptionDeadLetters(
  config: Config,
  ports: {
    queue: SubscriptionDeadLetterQueue;
    endpoints: SubscriptionEndpoints | undefined;
    alarmTopicArn: string | undefined;
  },
  limit: number,
): Promise<{ entries: (DeadLetterEntry & { message?: string })[]; problems: string[] }> {
  const problems: string[] = [];
  const messages = await ports.queue.peek(limit);
  let endpoints: ReadonlyMap<string, { protocol: string; endpoint: string }> | undefined;
  const deadLetters = messages.map((message) => ({ message, deadLetter: readSnsDeadLetter(message.body) }));
  if (deadLetters.some(({ deadLetter }) => deadLetter.form === 'envelope') && ports.endpoints) {
    try {
      endpoints = await ports.endpoints.endpoints();
    } catch (error) {
      problems.push(
        `which address each undelivered e-mail was for: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const entries = deadLetters.map(({ message, deadLetter }) => {
    const target = targetOf(config, deadLetter, { endpoints, alarmTopicArn: ports.alarmTopicArn });
    return {
      subscriberId:
        target.subscriberIds.length > 0
          ? target.subscriberIds.join(' or ')
          : target.eventType === 'alarm'
            ? 'alarm e-mail'
            : 'unknown',
      messageId: message.messageId,
      eventId: target.event?.id,
      eventType: target.eventType,
      reference: target.reference,
      kind: NOT_DELIVERED_BY_SNS,
      reason: target.reason,
      attempts: undefined,
      httpStatus: undefined,
      deadLetteredAt: message.sentAt,
      ...(deadLetter.form === 'envelope' ? { message: deadLetter.message } : {}),
    };
  });
  return { entries, problems };
}

/**
 * Moves back to `subscriberId`'s queue what SNS could not put there: the messages attributed to it alone.
 * Returns how many, and one line for each message that may be its but is left (several subscribers match).
 */
export async function replaySubscriptionDeadLetters(
  config: Config,
  subscriberId: string,
  queue: SubscriptionDeadLetterQueue,
  options: { delaySeconds: number },
): Promise<{ moved: number; left: string[] }> {
  const left: string[] = [];
  const moved = await queue.moveToSubscriberQueues((message) => {
    const target = targetOf(config, readSnsDeadLetter(message.body), {
      endpoints: undefined,
      alarmTopicArn: undefined,
    });
    if (!target.subscriberIds.includes(subscriberId) || target.event === undefined) return undefined;
    if (target.certain) return subscriberId;
    left.push(
      `message ${message.messageId} (event ${target.event.id}) left on the SNS dead-letter queue: ${target.reason}`,
    );
    return undefined;
  }, options);
  return { moved: moved.length, left };
}

function parseEvent(body: string): NotifierEvent | undefined {
  try {
    const parsed = NotifierEventSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
