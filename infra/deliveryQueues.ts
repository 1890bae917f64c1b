// Per channel type (Slack, webhook) that has subscribers: ONE delivery queue, subscribed to the event topic
// once (raw message delivery; a filter policy that keeps the digests out and nothing else), and ONE
// dead-letter queue, whatever the number of subscribers (deliveryQueueContract.ts). The delivery function
// splits each message from the topic into one per subscriber that takes it (routeEvent.ts, the decision
// the local runner makes too), back on the same queue with MessageGroupId = the subscriber: an SQS fair
// queue, where a subscriber whose receiver is slow or down is a noisy tenant and the others' messages are
// received first. Each split message has its own retry schedule (its visibility) and, on failure, a dead
// letter on the shared dead-letter queue naming its subscriber. The function settles each message itself;
// the redrive policy, after MAX_RECEIVE_COUNT receives, is the backstop for one it never settles.
//
// The subscription is a plain SqsSubscription with raw delivery, dead-lettered like every SNS subscription
// of the stack (subscriptionDeadLetters.ts).
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
import { CHANNEL_QUEUE_POLICY } from '../shared/contracts/snsFilterPolicy.js';
import type { QueueSubscriberType } from './notifierConfig.js';
import { secureQueue } from './secureQueue.js';
import type { SubscriptionDeadLetters } from './subscriptionDeadLetters.js';
import { renderedPolicy, scopedToMessageAttributes } from './subscriptionFilterPolicy.js';

export interface ChannelQueues {
  readonly type: QueueSubscriberType;
  /** The channel's subscribers, in config order (disabled ones included: their messages are dead-lettered). */
  readonly subscribers: readonly DeliverySubscriber[];
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
}

export interface DeliveryQueuesProps {
  /** The event topic the queues subscribe to. */
  readonly topic: ITopic;
  /** The config's Slack and webhook subscribers. */
  readonly subscribers: readonly DeliverySubscriber[];
  /** Where SNS puts what it cannot deliver to a channel's queue. */
  readonly deadLetters: SubscriptionDeadLetters;
  /**
   * How long a received message stays hidden when the function neither settles nor re-times it (a crash,
   * a timeout). At least the function's timeout, as SQS event sources require; six times it, as AWS
   * advises, so a batch that meets throttling is retried before its messages reappear.
   * @default six times DELIVERY_FUNCTION_TIMEOUT_SECONDS (33 minutes)
   */
  readonly visibilityTimeout?: Duration;
}

const CHANNEL_TYPES: readonly QueueSubscriberType[] = ['webhook', 'slack'];
const CONSTRUCT_IDS: Record<QueueSubscriberType, string> = { webhook: 'Webhook', slack: 'Slack' };

export class DeliveryQueues extends Construct {
  /** Only the channel types that have subscribers. */
  readonly channels: readonly ChannelQueues[];

  constructor(scope: Construct, id: string, props: DeliveryQueuesProps) {
    super(scope, id);
    const visibilityTimeout =
      props.visibilityTimeout ?? Duration.seconds(6 * DELIVERY_FUNCTION_TIMEOUT_SECONDS);
    if (visibilityTimeout.toSeconds() < DELIVERY_FUNCTION_TIMEOUT_SECONDS) {
      throw new Error(
        `visibilityTimeout must be at least the delivery functions' ${DELIVERY_FUNCTION_TIMEOUT_SECONDS} s timeout`,
      );
    }
    const channels: ChannelQueues[] = [];
    for (const type of CHANNEL_TYPES) {
      const subscribers = props.subscribers.filter((subscriber) => subscriber.type === type);
      if (subscribers.length === 0) continue;
      const scopeOfType = new Construct(this, CONSTRUCT_IDS[type]);
      // Longer than the source queue's: a message moved by the redrive policy keeps its first enqueue time.
      const deadLetterQueue = secureQueue(scopeOfType, 'DeadLetterQueue', {
        retentionPeriod: Duration.days(14),
      });
      const queue = secureQueue(scopeOfType, 'Queue', {
        // The retry schedule spans about 28 hours (33 with jitter); four days leave room for an outage.
        retentionPeriod: Duration.days(4),
        visibilityTimeout,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      if (subscribers.some((subscriber) => subscriber.enabled)) {
        // Every event but the digests (each addressed to one e-mail subscriber); the rest is routed in code.
        const filterPolicy = renderedPolicy(CHANNEL_QUEUE_POLICY);
        props.deadLetters.attach(
          scopedToMessageAttributes(
            props.topic.addSubscription(
              new SqsSubscription(queue, { rawMessageDelivery: true, filterPolicy }),
            ),
          ),
        );
      }
      channels.push({ type, subscribers, queue, deadLetterQueue });
    }
    this.channels = channels;
  }
}
