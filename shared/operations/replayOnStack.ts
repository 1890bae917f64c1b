// `meal-notifier replay --stack`: sends a Slack or webhook subscriber its deliveries again, on a deployed
// stack, under the original event ids (receivers dedupe on them), and enables it again if a receiver had
// disabled it. Either its dead-letter queue is moved back to its queue (with what SNS could not put on it,
// from the SNS subscriptions' dead-letter queue: subscriptionDeadLetters.ts), or events of the log (one by
// id, or all since a time) are put straight on its queue.
//
// Why straight on the queue and not through the event topic: a publish reaches every subscriber whose
// filter matches, e-mail included, while a replay is for one subscriber. The queue gets exactly what the
// topic would have delivered to it (the publisher's body and attributes; see the SQS adapter), and only
// events the subscriber's filter matches, checked with the matcher the topic's filter policies are
// compiled to agree with.
import type { Config, SubscriberConfig } from '../config/configSchema.js';
import { matchesFilter } from '../delivery/subscriberFilter.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { StoredEvent } from '../store/stateStore.js';
import type { DeliveryQueues } from './deliveryQueues.js';
import { ReplayRefusedError } from './errors.js';
import {
  type EmailResender,
  replaySubscriptionDeadLetters,
  resendEmailDeadLetters,
  type SubscriptionDeadLetterQueue,
} from './subscriptionDeadLetters.js';

export type StackReplayRequest =
  | { kind: 'deadLetters' }
  | { kind: 'event'; eventId: string }
  | { kind: 'since'; sinceMs: number };

export interface StackReplayPorts {
  store: {
    getEvent(organizationId: string, eventId: string): Promise<StoredEvent | undefined>;
    listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]>;
  };
  subscriberStatus: {
    /** True when it had been disabled. */
    enableSubscriber(subscriberId: string): Promise<boolean>;
    /** How long the delivery functions may go on reading it as disabled. */
    readonly cacheMs: number;
  };
  queues: DeliveryQueues;
  /** The SNS subscriptions' dead-letter queue, when the stack has one: a dead-letter replay takes the
   *  subscriber's messages from it too (those SNS could not put on its queue). */
  subscriptionDeadLetters?: SubscriptionDeadLetterQueue | undefined;
  /** Re-sends an e-mail subscriber's dead letters through the event topic, when the stack names it. */
  emailResender?: EmailResender | undefined;
}

export interface StackReplayResult {
  subscriberId: string;
  /** Where the replayed messages went: the subscriber's queue, or (e-mail) to each recipient again by SNS. */
  via: 'queue' | 'email';
  /** It had been disabled by a receiver, and is enabled again. */
  reenabled: boolean;
  /** Messages put on its queue. */
  replayed: number;
  /** Of those, how many came from the SNS dead-letter queue. */
  fromSubscriptionDeadLetters: number;
  /** Messages of the SNS dead-letter queue that may be its but are left there, one line each. */
  leftOnSubscriptionDeadLetters: string[];
  /** How long they wait before delivery: past the delivery functions' cache of "disabled". */
  delaySeconds: number;
}

/** Seconds past the delivery functions' cache of "disabled", for clocks and the time the replay takes. */
const REENABLE_MARGIN_SECONDS = 5;

export async function replayOnStack(
  config: Config,
  subscriberId: string,
  request: StackReplayRequest,
  ports: StackReplayPorts,
): Promise<StackReplayResult> {
  const email = emailSubscriber(config, subscriberId, request);
  if (email !== undefined) return resendToEmailSubscriber(config, email, ports);
  const subscriber = queueSubscriber(config, subscriberId, ports.queues);
  const events =
    request.kind === 'deadLetters' ? [] : await eventsToReplay(config, subscriber, request, ports);
  const reenabled = await ports.subscriberStatus.enableSubscriber(subscriber.id);
  // Delivered sooner, a message would meet a function that still reads the subscriber as disabled, and go
  // straight back to the dead-letter queue.
  const delaySeconds = reenabled
    ? Math.ceil(ports.subscriberStatus.cacheMs / 1000) + REENABLE_MARGIN_SECONDS
    : 0;
  let replayed: number;
  let fromSns = { moved: 0, left: [] as string[] };
  if (request.kind === 'deadLetters') {
    replayed = await ports.queues.redrive(subscriber.id, { delaySeconds });
    if (ports.subscriptionDeadLetters) {
      fromSns = await replaySubscriptionDeadLetters(config, subscriber.id, ports.subscriptionDeadLetters, {
        delaySeconds,
      });
      replayed += fromSns.moved;
    }
  } else {
    await ports.queues.send(subscriber.id, events, { delaySeconds });
    replayed = events.length;
  }
  return {
    subscriberId: subscriber.id,
    via: 'queue',
    reenabled,
    replayed,
    fromSubscriptionDeadLetters: fromSns.moved,
    leftOnSubscriptionDeadLetters: fromSns.left,
    delaySeconds,
  };
}

function queueSubscriber(config: Config, subscriberId: string, queues: DeliveryQueues): SubscriberConfig {
  const subscriber = config.subscribers.find(({ id }) => id === subscriberId);
  if (!subscriber) {
    const known = config.subscribers.map(({ id }) => id).join(', ') || 'none';
    throw new ReplayRefusedError(`no subscriber "${subscriberId}" in the config (known: ${known})`);
  }
  if (!subscriber.enabled) {
    throw new ReplayRefusedError(
      `subscriber "${subscriber.id}" has "enabled": false in the config, so its queue is not subscribed`,
    );
  }
  if (!queues.knows(subscriber.id)) {
    throw new ReplayRefusedError(
      `the stack has no queue outputs for subscriber "${subscriber.id}": deploy the stack with this config first`,
    );
  }
  return subscriber;
}

/** The e-mail subscriber a dead-letter replay is for; refused for events (SNS composes no e-mail anew). */
function emailSubscriber(
  config: Config,
  subscriberId: string,
  request: StackReplayRequest,
): SubscriberConfig | undefined {
  const subscriber = config.subscribers.find(({ id }) => id === subscriberId);
  if (subscriber?.type !== 'email') return undefined;
  if (request.kind !== 'deadLetters') {
    throw new ReplayRefusedError(
      `subscriber "${subscriber.id}" is an e-mail subscriber: on AWS the event topic e-mails it, so only what SNS could not deliver can be sent again (--dead-letters)`,
    );
  }
  return subscriber;
}

async function resendToEmailSubscriber(
  config: Config,
  subscriber: SubscriberConfig,
  ports: StackReplayPorts,
): Promise<StackReplayResult> {
  if (ports.subscriptionDeadLetters === undefined || ports.emailResender === undefined) {
    throw new ReplayRefusedError(
      `the stack has no SNS dead-letter queue or event topic output (deployed before SNS dead letters were kept): nothing of ${subscriber.id}'s to re-send`,
    );
  }
  const { resent, left } = await resendEmailDeadLetters(config, subscriber.id, {
    queue: ports.subscriptionDeadLetters,
    resender: ports.emailResender,
  });
  return {
    subscriberId: subscriber.id,
    via: 'email',
    reenabled: false,
    replayed: resent,
    fromSubscriptionDeadLetters: resent,
    leftOnSubscriptionDeadLetters: left,
    delaySeconds: 0,
  };
}

async function eventsToReplay(
  config: Config,
  subscriber: SubscriberConfig,
  request: Exclude<StackReplayRequest, { kind: 'deadLetters' }>,
  ports: StackReplayPorts,
): Promise<NotifierEvent[]> {
  if (request.kind === 'event') {
    for (const { id } of config.organizations) {
      const stored = await ports.store.getEvent(id, request.eventId);
      if (!stored) continue;
      if (!matchesFilter(subscriber.filter, stored.event)) {
        throw new ReplayRefusedError(
          `event ${request.eventId} does not match the filter of subscriber "${subscriber.id}"`,
        );
      }
      return [stored.event];
    }
    throw new ReplayRefusedError(
      `event ${request.eventId} is not in the state table for any organization of the config (events are kept 14 days)`,
    );
  }
  const found: StoredEvent[] = [];
  for (const { id } of config.organizations) {
    for (const stored of await ports.store.listEvents(id, request.sinceMs)) {
      if (matchesFilter(subscriber.filter, stored.event)) found.push(stored);
    }
  }
  found.sort((a, b) => a.recordedAt - b.recordedAt);
  return found.map(({ event }) => event);
}
