// Delivers one SQS record (raw SNS delivery: the body is the CloudEvent JSON) to the subscriber its queue
// serves, with the shared delivery engine (attemptDelivery, decideDelivery), and settles the decision:
// - delivered → returns, and the message is deleted;
// - retry → hidden for the schedule's next wait (ChangeMessageVisibility), then throws so the message
//   stays; once the schedule is spent, dead-lettered instead;
// - dead (a refusal that repeating will not change), a malformed body, a disabled subscriber → put on the
//   subscriber's DLQ with the reason, then returns: no retry;
// - gone → the subscriber is recorded as disabled, then dead-lettered; its later messages go straight to
//   the DLQ without a request.
// Throwing is how a record lands in batchItemFailures; everything else deletes it.
import type { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import type { DeliverySubscriber } from '../../contracts/deliveryQueueContract.js';
import { ATTEMPT_TIME_RESERVE_MS } from '../../contracts/deliveryQueueContract.js';
import { type NotifierEvent, NotifierEventSchema } from '../../events/notifierEvent.js';
import { attemptDelivery } from '../attemptDelivery.js';
import { type DeliveryDecision, decideDelivery } from '../deliveryDecision.js';
import type { DeliveryOutcome } from '../deliveryOutcome.js';
import type { SenderSource } from '../outboxDelivery.js';
import type { SubscriberStatus } from '../subscriberStatus.js';
import type { DeadLetter } from './deadLetters.js';
import type { DeliveryTally } from './deliveryMetrics.js';
import { DeliveryDeferredError, UnknownQueueError } from './errors.js';
import { visibilitySeconds } from './retryVisibility.js';

export interface QueueActions {
  /** Hides the record's message for `seconds` from now. */
  changeVisibility(queueArn: string, receiptHandle: string, seconds: number): Promise<void>;
  deadLetter(queueUrl: string, body: string, letter: DeadLetter): Promise<void>;
}

export interface SqsDeliveryDependencies<S extends DeliverySubscriber> {
  /** By source queue ARN. */
  subscriberOfQueue: ReadonlyMap<string, S>;
  /** By subscriber id. */
  deadLetterQueueUrl: ReadonlyMap<string, string>;
  senders: SenderSource;
  status: SubscriberStatus;
  queue: QueueActions;
  tally: DeliveryTally;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock: () => number;
  /** The retry schedule's jitter. */
  random: () => number;
  /** What is left of the invocation; absent, there is no limit. */
  remainingTimeMs?: () => number;
}

interface Delivery<S extends DeliverySubscriber> {
  record: SQSRecord;
  subscriber: S;
  /** ApproximateReceiveCount: attempts made, this one included. */
  attempts: number;
  deps: SqsDeliveryDependencies<S>;
}

/** @throws when the message must stay on its queue (a deferred delivery, or a step that failed) */
export async function deliverSqsRecord<S extends DeliverySubscriber>(
  record: SQSRecord,
  deps: SqsDeliveryDependencies<S>,
): Promise<void> {
  const subscriber = deps.subscriberOfQueue.get(record.eventSourceARN);
  if (subscriber === undefined) throw new UnknownQueueError(record.eventSourceARN);
  const delivery: Delivery<S> = { record, subscriber, attempts: receiveCount(record), deps };
  const parsed = parseEventBody(record.body);
  if ('problem' in parsed) return deadLetter(delivery, { kind: 'malformed', reason: parsed.problem });
  const event = parsed.event;
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
  await settle(delivery, event, outcome, decideDelivery(outcome, delivery.attempts, deps.random));
}

async function settle<S extends DeliverySubscriber>(
  delivery: Delivery<S>,
  event: NotifierEvent,
  outcome: DeliveryOutcome,
  decision: DeliveryDecision,
): Promise<void> {
  const { subscriber, attempts, deps } = delivery;
  const about = { subscriber: subscriber.id, eventId: event.id, eventType: event.type, attempts };
  const status = outcome.status === undefined ? {} : { status: outcome.status };
  switch (decision.kind) {
    case 'delivered': {
      const latencyMs = deps.clock() - Date.parse(event.time);
      deps.tally.count(subscriber.id, 'Delivered');
      deps.tally.latency(subscriber.id, latencyMs);
      deps.logger.info('delivered', { ...about, ...status, latencyMs });
      return;
    }
    case 'paused':
    case 'retry': {
      const hidden = await hide(delivery, visibilitySeconds(decision.delayMs));
      deps.tally.count(subscriber.id, 'DeliveryRetried');
      deps.logger.warn('delivery deferred', {
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
      deps.tally.count(subscriber.id, 'SubscriberDisabled');
      deps.logger.warn('subscriber disabled', { ...about, ...status, reason: disabled.reason });
      return deadLetter(delivery, { kind: 'gone', reason: decision.reason, eventId: event.id, ...status });
    }
  }
}

async function deadLetter<S extends DeliverySubscriber>(
  delivery: Delivery<S>,
  letter: Pick<DeadLetter, 'kind' | 'reason' | 'eventId' | 'status'>,
): Promise<void> {
  const { record, subscriber, attempts, deps } = delivery;
  const queueUrl = deps.deadLetterQueueUrl.get(subscriber.id);
  // The environment check guarantees one; without it the queue's redrive policy is the only way out.
  if (queueUrl === undefined) throw new Error(`no dead-letter queue URL for subscriber "${subscriber.id}"`);
  await deps.queue.deadLetter(queueUrl, record.body, {
    ...letter,
    subscriberId: subscriber.id,
    attempts,
    atMs: deps.clock(),
  });
  deps.tally.count(subscriber.id, 'DeadLettered');
  deps.logger.warn('dead-lettered', {
    subscriber: subscriber.id,
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
  const { record, subscriber, deps } = delivery;
  try {
    await deps.queue.changeVisibility(record.eventSourceARN, record.receiptHandle, seconds);
    return seconds;
  } catch (error) {
    deps.logger.warn('could not change message visibility', {
      subscriber: subscriber.id,
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
