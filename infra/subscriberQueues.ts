// Per Slack or webhook subscriber, a queue subscribed to the event topic (raw delivery: the message body
// is the CloudEvent JSON; the subscriber's compiled filter policy) and its dead-letter queue. The delivery
// function settles each message itself, and dead-letters what is permanent or has spent the retry
// schedule; the redrive policy, after MAX_RECEIVE_COUNT receives, is the backstop for a message the
// function never settles (deliveryQueueContract.ts). A disabled subscriber keeps its queues, unsubscribed.
// What SNS cannot put on a queue (a refusing queue policy, a deleted queue) goes to the stack's SNS
// dead-letter queue (subscriptionDeadLetters.ts).
import { Duration } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DeliverySubscriber } from '../shared/contracts/deliveryQueueContract.js';
import {
  DELIVERY_FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
} from '../shared/contracts/deliveryQueueContract.js';
import { secureQueue } from './secureQueue.js';
import type { SubscriptionDeadLetters } from './subscriptionDeadLetters.js';
import {
  catchUpAfterSecondsOf,
  scopedToMessageAttributes,
  subscriptionFilterPolicy,
} from './subscriptionFilterPolicy.js';

export interface SubscriberQueue {
  readonly subscriber: DeliverySubscriber;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
}

export interface SubscriberQueuesProps {
  /** The event topic the queues subscribe to. */
  readonly topic: ITopic;
  /** The config's Slack and webhook subscribers. */
  readonly subscribers: readonly DeliverySubscriber[];
  /** Where SNS puts what it cannot deliver to a queue. */
  readonly deadLetters: SubscriptionDeadLetters;
  /**
   * How long a received message stays hidden when the function neither settles nor re-times it (a crash,
   * a timeout). At least the function's timeout, as SQS event sources require; six times it, as AWS
   * advises, so a batch that meets throttling is retried before its messages reappear.
   * @default six times DELIVERY_FUNCTION_TIMEOUT_SECONDS (33 minutes)
   */
  readonly visibilityTimeout?: Duration;
}

export class SubscriberQueues extends Construct {
  /** In config order. */
  readonly all: readonly SubscriberQueue[];

  constructor(scope: Construct, id: string, props: SubscriberQueuesProps) {
    super(scope, id);
    const visibilityTimeout =
      props.visibilityTimeout ?? Duration.seconds(6 * DELIVERY_FUNCTION_TIMEOUT_SECONDS);
    if (visibilityTimeout.toSeconds() < DELIVERY_FUNCTION_TIMEOUT_SECONDS) {
      throw new Error(
        `visibilityTimeout must be at least the delivery functions' ${DELIVERY_FUNCTION_TIMEOUT_SECONDS} s timeout`,
      );
    }
    this.all = props.subscribers.map((subscriber) => {
      const scopeOfSubscriber = new Construct(this, subscriber.id);
      // Longer than the source queue's: a message moved by the redrive policy keeps its first enqueue time.
      const deadLetterQueue = secureQueue(scopeOfSubscriber, 'DeadLetterQueue', {
        retentionPeriod: Duration.days(14),
      });
      const queue = secureQueue(scopeOfSubscriber, 'Queue', {
        // The retry schedule spans about 28 hours (33 with jitter); four days leave room for an outage.
        retentionPeriod: Duration.days(4),
        visibilityTimeout,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      if (subscriber.enabled) {
        // Always a policy: one without would take every subscriber's digests too.
        const filterPolicy = subscriptionFilterPolicy(
          subscriber.filter,
          undefined,
          catchUpAfterSecondsOf(subscriber),
        );
        props.deadLetters.attach(
          scopedToMessageAttributes(
            props.topic.addSubscription(
              new SqsSubscription(queue, { rawMessageDelivery: true, filterPolicy }),
            ),
          ),
        );
      }
      return { subscriber, queue, deadLetterQueue };
    });
  }
}
