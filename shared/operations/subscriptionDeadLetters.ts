// The SNS subscriptions' dead-letter queue of a deployed stack (what SNS could not deliver to an e-mail
// address or a subscriber queue), for `deliveries --stack` and `replay --stack`: which subscriber each
// message was for, as far as the message tells (shared/contracts/snsDeadLetter.ts), moving a subscriber
// queue's back to that queue alone, and re-sending an e-mail to its one recipient. The SQS and SNS
// adapters are the CLI's.
//
// Which subscription: an e-mail notification names its subscription, whose address (and a digest's
// `digest` attribute) names the subscriber. A raw one names nothing: it is attributed to the Slack and
// webhook subscribers whose filter matches its event, and moved back only when that is one subscriber,
// since putting it on a queue that had it would deliver it twice. An event is never re-published to the
// topic: that would reach every subscription whose filter matches again. An e-mail is, as a re-sent
// e-mail (messageAttributes.ts) that only its own subscription's resend branch lets in; which
// subscription that is, its deployed filter policy says (the branch names the subscriber, the kind and
// the address).
import type { Config, SubscriberConfig } from '../config/configSchema.js';
import { emailSubscriptionPolicy } from '../contracts/emailSubscriptionPolicy.js';
import {
  type ResendTarget,
  resendAudience,
  resendMessageAttributes,
} from '../contracts/messageAttributes.js';
import {
  readSnsDeadLetter,
  type SnsDeadLetter,
  type SnsEnvelopeDeadLetter,
} from '../contracts/snsDeadLetter.js';
import { resendTargetOf as resendTargetOfPolicy } from '../contracts/snsFilterPolicy.js';
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
  /**
   * Hands each message to `settle` in turn, deleting it once `settle` resolves true, giving it back when
   * false (or when `settle` throws, which ends the pass). Returns the ids deleted.
   */
  settleEach(settle: (message: SubscriptionDeadLetterMessage) => Promise<boolean>): Promise<string[]>;
}

/** One e-mail subscription as SNS holds it (GetSubscriptionAttributes). */
export interface EmailSubscriptionState {
  endpoint: string;
  /** Its FilterPolicy, parsed; undefined when it has none. */
  filterPolicy: unknown;
}

/** Re-sending an e-mail through the event topic. */
export interface EmailResender {
  /** The event topic: only its notifications are re-sent (the alarm topic's are the alarms' history). */
  readonly topicArn: string;
  /** The subscription, or undefined when SNS no longer has it (unsubscribed, or removed by a deploy). */
  subscription(subscriptionArn: string): Promise<EmailSubscriptionState | undefined>;
  /** Publishes to the event topic; resolves once SNS accepted the message. */
  publish(message: {
    subject: string | undefined;
    body: string;
    attributes: ReturnType<typeof resendMessageAttributes>;
  }): Promise<void>;
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
  const subscribers = config.subscribers.filter(
    (subscriber): subscriber is Extract<SubscriberConfig, { type: 'email' }> =>
      subscriber.type === 'email' &&
      (digest === undefined || subscriber.id === digest) &&
      endpoint !== undefined &&
      subscriber.to.some((address) => address.toLowerCase() === endpoint.toLowerCase()),
  );
  const ids = subscribers.map(({ id }) => id);
  const failed = `SNS could not e-mail ${recipient}${digest === undefined ? '' : ' (a digest)'}`;
  const only = subscribers.length === 1 ? subscribers[0] : undefined;
  const resend =
    only === undefined || endpoint === undefined
      ? undefined
      : emailSubscriptionPolicy(only, digest === undefined ? 'events' : 'digest', endpoint);
  return {
    ...base,
    subscriberIds: ids.length > 0 ? ids : digest === undefined ? [] : [digest],
    certain: ids.length === 1,
    reason:
      resend === undefined
        ? `${failed}; replay --subscriber ID --dead-letters re-sends it to that address alone, for the subscriber whose subscription it was`
        : resend.resend
          ? `${failed}; replay --subscriber ${only?.id} --dead-letters re-sends it to that address alone`
          : `${failed}; its subscription takes no re-sent e-mail (${resend.reason}): forward it by hand (--json has its text), then delete it (docs/aws.md, "Operate it")`,
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

/**
 * Re-sends to each of `subscriberId`'s recipients what SNS could not e-mail them, to that address alone,
 * with the original subject and body, and deletes each message once SNS accepted its copy. A message of
 * the subscriber's that cannot be re-sent stays, with one line saying why and what to do.
 */
export async function resendEmailDeadLetters(
  config: Config,
  subscriberId: string,
  ports: { queue: SubscriptionDeadLetterQueue; resender: EmailResender },
): Promise<{ resent: number; left: string[] }> {
  const subscriber = config.subscribers.find(
    (candidate): candidate is Extract<SubscriberConfig, { type: 'email' }> =>
      candidate.id === subscriberId && candidate.type === 'email',
  );
  const left: string[] = [];
  const subscriptions = new Map<string, Promise<EmailSubscriptionState | undefined>>();
  const subscriptionOf = (arn: string) => {
    let found = subscriptions.get(arn);
    if (found === undefined) {
      found = ports.resender.subscription(arn);
      subscriptions.set(arn, found);
    }
    return found;
  };
  const resent = await ports.queue.settleEach(async (message) => {
    const deadLetter = readSnsDeadLetter(message.body);
    if (deadLetter.form !== 'envelope' || deadLetter.topicArn !== ports.resender.topicArn) return false;
    if (deadLetter.subscriptionArn === undefined) return false;
    const subscription = await subscriptionOf(deadLetter.subscriptionArn);
    const what = `message ${message.messageId}${deadLetter.subject === undefined ? '' : ` ("${deadLetter.subject}")`}`;
    if (subscription === undefined) {
      // Whose it was, SNS no longer says; the address may still, if it is one of this subscriber's.
      return false;
    }
    const target = resendTargetFrom(subscription, deadLetter);
    if (target !== undefined && target.subscriberId !== subscriberId) return false;
    const mine =
      target !== undefined ||
      (subscriber !== undefined &&
        (deadLetter.attributes.digest === undefined || deadLetter.attributes.digest === subscriberId) &&
        subscriber.to.some((address) => address.toLowerCase() === subscription.endpoint.toLowerCase()));
    if (!mine) return false;
    if (target === undefined) {
      left.push(
        `${what} for ${subscriberId} (${subscription.endpoint}) left on the SNS dead-letter queue: ${noResendBranch(subscriber, deadLetter, subscription.endpoint)}`,
      );
      return false;
    }
    try {
      await ports.resender.publish({
        subject: deadLetter.subject,
        body: deadLetter.message,
        attributes: resendMessageAttributes(target),
      });
    } catch (error) {
      left.push(
        `${what} for ${subscriberId} (${subscription.endpoint}) left on the SNS dead-letter queue: the re-send was not published: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
    return true;
  });
  return { resent: resent.length, left };
}

/** The subscription's resend branch, when the deployed policy has one for this address. */
function resendTargetFrom(
  subscription: EmailSubscriptionState,
  deadLetter: SnsEnvelopeDeadLetter,
): ResendTarget | undefined {
  const target = resendTargetOfPolicy(subscription.filterPolicy);
  if (target === undefined) return undefined;
  // The branch of another address would e-mail someone else: the policy must be this subscription's own.
  if (target.address !== subscription.endpoint.toLowerCase()) return undefined;
  if ((deadLetter.attributes.digest !== undefined) !== (target.kind === 'digest')) return undefined;
  return target;
}

/** Why the subscription takes no re-sent e-mail, and what to do. */
function noResendBranch(
  subscriber: Extract<SubscriberConfig, { type: 'email' }> | undefined,
  deadLetter: SnsEnvelopeDeadLetter,
  endpoint: string,
): string {
  const byHand = 'forward it by hand (deliveries --stack --json has its text), then delete it';
  if (subscriber !== undefined && deadLetter.attributes.digest === undefined) {
    const fits = emailSubscriptionPolicy(subscriber, 'events', endpoint);
    if (!fits.resend) return `its subscription takes no re-sent e-mail (${fits.reason}): ${byHand}`;
  }
  return `its subscription's filter policy has no branch for re-sent e-mail (${resendAudienceHint(subscriber, deadLetter, endpoint)}): deploy the stack with this version, wait a few minutes for SNS to apply it, and replay again; or ${byHand}`;
}

function resendAudienceHint(
  subscriber: { id: string } | undefined,
  deadLetter: SnsEnvelopeDeadLetter,
  endpoint: string,
): string {
  if (subscriber === undefined) return 'the stack was deployed with another config';
  return `expected audience ${resendAudience({ subscriberId: subscriber.id, kind: deadLetter.attributes.digest === undefined ? 'events' : 'digest', address: endpoint })}; deployed before e-mail could be re-sent`;
}

function parseEvent(body: string): NotifierEvent | undefined {
  try {
    const parsed = NotifierEventSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
