// Settles one SQS record of a channel's delivery queue (deliveryQueueContract.ts). Two kinds of message:
// - an intake message (raw SNS delivery: the body is the CloudEvent JSON, no `subscriber` attribute) is
//   split: one copy per subscriber that routeEvent says takes it, sent back to the queue with
//   MessageGroupId = the subscriber (a fair queue's tenant) and the `subscriber` attribute; then deleted;
// - a delivery message is delivered to its subscriber with the shared engine (attemptDelivery,
//   decideDelivery), and the decision settled:
//   - delivered → returns, and the message is deleted;
//   - retry → hidden for the schedule's next wait (ChangeMessageVisibility of this message alone: every
//     subscriber keeps its own schedule), then throws so the message stays; once the schedule is spent,
//     dead-lettered instead;
//   - paused (a person must fix the subscriber) → sent again, delayed PAUSED_RESEND_DELAY_SECONDS, and the
//     received copy deleted: the copy starts at receive count 1, so a pause of days never spends the
//     receives the redrive policy counts, and no delivery is lost while it lasts;
//   - dead (a refusal that repeating will not change), a malformed body, a disabled or unknown subscriber →
//     put on the dead-letter queue with the reason and the subscriber, then returns: no retry;
//   - gone → the subscriber is recorded as disabled, then dead-lettered; its later messages go straight to
//     the DLQ without a request.
// Throwing is how a record lands in batchItemFailures; everything else deletes it. Each outcome is one
// structured log line (deliveryLogLines.ts) naming the subscriber, the event, the attempts and, once
// delivered, the latency: the dashboard's delivery widgets are Logs Insights queries over them.
import type { Logger } from '@aws-lambda-powertools/logger';
import type { SQSMessageAttribute, SQSRecord } from 'aws-lambda';
import { DELIVERY_OUTCOME_MESSAGES as OUTCOME } from '../../contracts/deliveryLogLines.js';
import type { DeliverySubscriber } from '../../contracts/deliveryQueueContract.js';
import {
  ATTEMPT_TIME_RESERVE_MS,
  PAUSED_RESEND_DELAY_SECONDS,
  SUBSCRIBER_ATTRIBUTE,
} from '../../contracts/deliveryQueueContract.js';
import { type NotifierEvent, NotifierEventSchema } from '../../events/notifierEvent.js';
import { attemptDelivery } from '../attemptDelivery.js';
import { type DeliveryDecision, decideDelivery } from '../deliveryDecision.js';
import type { DeliveryOutcome } from '../deliveryOutcome.js';
import type { SenderSource } from '../outboxDelivery.js';
import { routeEvent } from '../routeEvent.js';
import type { SubscriberStatus } from '../subscriberStatus.js';
import type { DeadLetter } from './deadLetters.js';
import { DeliveryDeferredError } from './errors.js';
import type { PausedCount } from './pausedCount.js';
import { visibilitySeconds } from './retryVisibility.js';

/** A message attribute as SQS's SendMessage takes it. */
export interface QueueAttribute {
  DataType: string;
  StringValue: string;
}

/** A message to put on the delivery queue for one subscriber. */
export interface QueuedDelivery {
  body: string;
  subscriberId: string;
  attributes: Record<string, QueueAttribute>;
  delaySeconds?: number;
}

export interface QueueActions {
  /** Hides the record's message for `seconds` from now. */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
  deadLetter(body: string, letter: DeadLetter): Promise<void>;
  /** Puts the messages on the delivery queue, each in its subscriber's message group. @throws unless all were taken */
  send(messages: readonly QueuedDelivery[]): Promise<void>;
}

export interface SqsDeliveryDependencies<S extends DeliverySubscriber> {
  /** The function's subscribers (of its one type), in config order. */
  subscribers: readonly S[];
  senders: SenderSource;
  status: SubscriberStatus;
  queue: QueueActions;
  /** Counts the deliveries that found their subscriber paused: the paused alarm's metric. */
  paused: PausedCount;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock: () => number;
  /** The retry schedule's jitter. */
  random: () => number;
  /** What is left of the invocation; absent, there is no limit. */
  remainingTimeMs?: () => number;
}

interface Delivery<S extends DeliverySubscriber> {
  record: SQSRecord;
  subscriberId: string;
  subscriber: S | undefined;
  /** ApproximateReceiveCount: attempts made, this one included. */
  attempts: number;
  deps: SqsDeliveryDependencies<S>;
}

/** The subscriber a record is for; undefined for an intake message, which is split first. */
export function subscriberOfRecord(record: Pick<SQSRecord, 'messageAttributes'>): string | undefined {
  const value = record.messageAttributes?.[SUBSCRIBER_ATTRIBUTE]?.stringValue;
  return value === undefined || value === '' ? undefined : value;
}

/** @throws when the message must stay on its queue (a deferred delivery, or a step that failed) */
export async function deliverSqsRecord<S extends DeliverySubscriber>(
  record: SQSRecord,
  deps: SqsDeliveryDependencies<S>,
): Promise<void> {
  const subscriberId = subscriberOfRecord(record);
  if (subscriberId === undefined) return split(record, deps);
  const subscriber = deps.subscribers.find(({ id }) => id === subscriberId);
  const delivery: Delivery<S> = { record, subscriberId, subscriber, attempts: receiveCount(record), deps };
  const parsed = parseEventBody(record.body);
  if ('problem' in parsed) return deadLetter(delivery, { kind: 'malformed', reason: parsed.problem });
  const event = parsed.event;
  if (subscriber === undefined) {
    return deadLetter(delivery, {
      kind: 'subscriber_disabled',
      reason: `subscriber "${subscriberId}" is not in this function's config (removed, or of the other type)`,
      eventId: event.id,
    });
  }
  const disabled = await whyDisabled(subscriber, deps.status);
  if (disabled !== undefined) {
    return deadLetter(delivery, { kind: 'subscriber_disabled', reason: disabled, eventId: event.id });
  }
  if ((deps.remainingTimeMs?.() ?? Number.POSITIVE_INFINITY) < ATTEMPT_TIME_RESERVE_MS) {
    // A send cut off by the function's timeout would settle nothing; hand it back to be picked up at once.
    await hide(delivery, 0);
    throw new DeliveryDeferredError(
      subscriber.id,
      event.id,
      'not attempted: the invocation is out of time',
      0,
    );
  }
  const outcome = await attemptDelivery(() => deps.senders.senderFor(subscriber.id), event);
  await settle(delivery, subscriber, event, outcome, decideDelivery(outcome, delivery.attempts, deps.random));
}

/**
 * One message per subscriber that takes the event, in its own message group. Sent all or the record stays:
 * a retry then sends the ones already taken again (a webhook's `webhook-id` and the board's versions make
 * that harmless), never loses one.
 */
async function split<S extends DeliverySubscriber>(
  record: SQSRecord,
  deps: SqsDeliveryDependencies<S>,
): Promise<void> {
  const parsed = parseEventBody(record.body);
  if ('problem' in parsed) {
    await deps.queue.deadLetter(record.body, {
      kind: 'malformed',
      reason: parsed.problem,
      attempts: receiveCount(record),
      atMs: deps.clock(),
    });
    deps.logger.warn(OUTCOME.deadLettered, {
      messageId: record.messageId,
      kind: 'malformed',
      reason: parsed.problem,
    });
    return;
  }
  const event = parsed.event;
  const targets = routeEvent(deps.subscribers, event, audiencesOf(record));
  const attributes = sendableAttributes(record.messageAttributes);
  await deps.queue.send(
    targets.map((subscriber) => ({
      body: record.body,
      subscriberId: subscriber.id,
      attributes: {
        ...attributes,
        [SUBSCRIBER_ATTRIBUTE]: { DataType: 'String', StringValue: subscriber.id },
      },
    })),
  );
  deps.logger.info('split', {
    eventId: event.id,
    eventType: event.type,
    subscribers: targets.map(({ id }) => id),
  });
}

async function settle<S extends DeliverySubscriber>(
  delivery: Delivery<S>,
  subscriber: S,
  event: NotifierEvent,
  outcome: DeliveryOutcome,
  decision: DeliveryDecision,
): Promise<void> {
  const { attempts, deps } = delivery;
  const about = { subscriber: subscriber.id, eventId: event.id, eventType: event.type, attempts };
  const status = outcome.status === undefined ? {} : { status: outcome.status };
  switch (decision.kind) {
    case 'delivered': {
      // Event detected → delivered; a clock behind the poller's is no negative latency.
      const latencyMs = Math.max(0, deps.clock() - Date.parse(event.time));
      deps.logger.info(OUTCOME.delivered, { ...about, ...status, latencyMs });
      return;
    }
    case 'paused': {
      // Kept, not retried: a person must act. The copy waits SQS's longest delay; deleting this one only once
      // the copy is taken, so a failure in between leaves the message where it was.
      const { record } = delivery;
      await deps.queue.send([
        {
          body: record.body,
          subscriberId: subscriber.id,
          attributes: sendableAttributes(record.messageAttributes),
          delaySeconds: PAUSED_RESEND_DELAY_SECONDS,
        },
      ]);
      deps.paused.add(subscriber.id);
      deps.logger.warn(OUTCOME.paused, {
        ...about,
        ...status,
        reason: decision.reason,
        action: `subscriber "${subscriber.id}" paused, deliveries kept: ${decision.action}`,
        retryInSeconds: PAUSED_RESEND_DELAY_SECONDS,
      });
      return;
    }
    case 'retry': {
      const hidden = await hide(delivery, visibilitySeconds(decision.delayMs));
      deps.logger.warn(OUTCOME.deferred, {
        ...about,
        ...status,
        reason: decision.reason,
        retryInSeconds: hidden,
      });
      throw new DeliveryDeferredError(subscriber.id, event.id, decision.reason, hidden);
    }
    case 'dead':
      return deadLetter(delivery, {
        kind: decision.exhausted ? 'retries_exhausted' : 'dead',
        reason: decision.reason,
        eventId: event.id,
        ...status,
      });
    case 'gone': {
      const disabled = await deps.status.disableSubscriber(subscriber.id, decision.reason, deps.clock());
      deps.logger.warn(OUTCOME.disabled, { ...about, ...status, reason: disabled.reason });
      return deadLetter(delivery, { kind: 'gone', reason: decision.reason, eventId: event.id, ...status });
    }
  }
}

async function deadLetter<S extends DeliverySubscriber>(
  delivery: Delivery<S>,
  letter: Pick<DeadLetter, 'kind' | 'reason' | 'eventId' | 'status'>,
): Promise<void> {
  const { record, subscriberId, attempts, deps } = delivery;
  await deps.queue.deadLetter(record.body, { ...letter, subscriberId, attempts, atMs: deps.clock() });
  deps.logger.warn(OUTCOME.deadLettered, {
    subscriber: subscriberId,
    messageId: record.messageId,
    attempts,
    ...letter,
  });
}

/** Hides the message; the seconds it is hidden for, or undefined when SQS refused (it then reappears after the queue's visibility timeout). */
async function hide<S extends DeliverySubscriber>(
  delivery: Delivery<S>,
  seconds: number,
): Promise<number | undefined> {
  const { record, subscriberId, deps } = delivery;
  try {
    await deps.queue.changeVisibility(record.receiptHandle, seconds);
    return seconds;
  } catch (error) {
    deps.logger.warn('could not change message visibility', {
      subscriber: subscriberId,
      messageId: record.messageId,
      error: messageOf(error),
    });
    return undefined;
  }
}

async function whyDisabled<S extends DeliverySubscriber>(
  subscriber: S,
  status: SubscriberStatus,
): Promise<string | undefined> {
  if (!subscriber.enabled) return 'subscriber is disabled in the config';
  const disabled = await status.disabled(subscriber.id);
  return (
    disabled &&
    `subscriber was disabled at ${new Date(disabled.disabledAt).toISOString()}: ${disabled.reason}`
  );
}

/**
 * The event's `audience` as raw delivery carries it (a String.Array attribute's JSON text); undefined when
 * the message has none (one put on the queue by hand), which then goes by the filters alone.
 */
function audiencesOf(record: SQSRecord): string[] | undefined {
  const attribute = record.messageAttributes?.audience;
  if (attribute?.stringValue === undefined) return undefined;
  if (!attribute.dataType.startsWith('String.Array')) return [attribute.stringValue];
  try {
    const values = JSON.parse(attribute.stringValue) as unknown;
    return Array.isArray(values) ? values.map(String) : undefined;
  } catch {
    return undefined;
  }
}

/** The record's String and Number attributes as SendMessage takes them (SNS's raw delivery gives only those). */
function sendableAttributes(
  attributes: Record<string, SQSMessageAttribute> | undefined,
): Record<string, QueueAttribute> {
  const sendable: Record<string, QueueAttribute> = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value.stringValue === undefined || value.stringValue === '') continue;
    sendable[name] = { DataType: value.dataType, StringValue: value.stringValue };
  }
  return sendable;
}

function parseEventBody(body: string): { event: NotifierEvent } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { problem: 'message body is not JSON' };
  }
  const parsed = NotifierEventSchema.safeParse(json);
  if (parsed.success) return { event: parsed.data };
  // Paths and zod's messages only: values from the body may be contact details.
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  return { problem: `message body is not an event of the contract: ${problems.join('; ')}` };
}

function receiveCount(record: SQSRecord): number {
  const count = Number.parseInt(record.attributes.ApproximateReceiveCount, 10);
  return Number.isSafeInteger(count) && count >= 1 ? count : 1;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
