// The SQS adapter of the SubscriptionDeadLetterQueue port (the SNS subscriptions' dead-letter queue), and
// the SNS one of SubscriptionEndpoints. Reading takes messages for a few seconds and gives them back at
// once; a message is deleted only once its copy is on the subscriber's queue.
import { ListSubscriptionsByTopicCommand, type SNSClient } from '@aws-sdk/client-sns';
import { DeleteMessageCommand, type Message, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SUBSCRIBER_ATTRIBUTE } from '../../shared/contracts/deliveryQueueContract.js';
import { StackAccessError } from '../../shared/operations/errors.js';
import type { SubscriberQueueUrls } from '../../shared/operations/stackResources.js';
import type {
  SubscriptionDeadLetterMessage,
  SubscriptionDeadLetterQueue,
  SubscriptionEndpoints,
} from '../../shared/operations/subscriptionDeadLetters.js';
import { giveBack, receiveMessages, SQS_BATCH_MAX_ENTRIES } from './sqsPeek.js';
import { stackAccessError } from './stackAccessError.js';

const PEEK_VISIBILITY_SECONDS = 30;
const MOVE_VISIBILITY_SECONDS = 120;
/** What it is called in a failure's line. */
const SNS_DEAD_LETTER_QUEUE = 'the SNS dead-letter queue';

export class SqsSubscriptionDeadLetterQueue implements SubscriptionDeadLetterQueue {
  readonly #sqs: SQSClient;
  readonly #url: string;
  readonly #subscriberQueues: ReadonlyMap<string, SubscriberQueueUrls>;
  readonly #what: string;

  constructor(sqs: SQSClient, url: string, subscriberQueues: ReadonlyMap<string, SubscriberQueueUrls>) {
    this.#sqs = sqs;
    this.#url = url;
    this.#subscriberQueues = subscriberQueues;
    this.#what = `${SNS_DEAD_LETTER_QUEUE} (${url})`;
  }

  async peek(limit: number): Promise<SubscriptionDeadLetterMessage[]> {
    const taken = new Map<string, Message>();
    try {
      while (taken.size < limit) {
        const received = await receiveMessages(
          this.#sqs,
          SNS_DEAD_LETTER_QUEUE,
          this.#url,
          Math.min(SQS_BATCH_MAX_ENTRIES, limit - taken.size),
          PEEK_VISIBILITY_SECONDS,
        );
        const fresh = received.filter((message) => message.MessageId && !taken.has(message.MessageId));
        if (fresh.length === 0) break;
        for (const message of fresh) taken.set(message.MessageId ?? '', message);
      }
    } finally {
      await giveBack(this.#sqs, this.#url, [...taken.values()]);
    }
    return [...taken.values()].map(toMessage);
  }

  async moveToSubscriberQueues(
    destination: (message: SubscriptionDeadLetterMessage) => string | undefined,
    options: { delaySeconds: number },
  ): Promise<string[]> {
    const seen = new Set<string>();
    const kept: Message[] = [];
    const moved: string[] = [];
    try {
      for (;;) {
        const received = await receiveMessages(
          this.#sqs,
          SNS_DEAD_LETTER_QUEUE,
          this.#url,
          SQS_BATCH_MAX_ENTRIES,
          MOVE_VISIBILITY_SECONDS,
        );
        const fresh = received.filter((message) => message.MessageId && !seen.has(message.MessageId));
        if (fresh.length === 0) break;
        for (const message of fresh) {
          seen.add(message.MessageId ?? '');
          const subscriberId = destination(toMessage(message));
          const queueUrl =
            subscriberId === undefined ? undefined : this.#subscriberQueues.get(subscriberId)?.queueUrl;
          if (queueUrl === undefined) {
            kept.push(message);
            continue;
          }
          await this.#send(subscriberId ?? '', queueUrl, message, options.delaySeconds);
          // Deleted only once the copy is on the queue: a failure in between sends it twice, never loses it.
          await this.#delete(message);
          moved.push(message.MessageId ?? '');
        }
      }
    } finally {
      await giveBack(this.#sqs, this.#url, kept);
    }
    return moved;
  }

  async #send(subscriberId: string, queueUrl: string, message: Message, delaySeconds: number): Promise<void> {
    try {
      await this.#sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: message.Body ?? '',
          // The channel's queue is shared: named for the subscriber and in its message group, the copy goes
          // to it alone, not split again among every subscriber of the channel.
          MessageGroupId: subscriberId,
          MessageAttributes: {
            ...message.MessageAttributes,
            [SUBSCRIBER_ATTRIBUTE]: { DataType: 'String', StringValue: subscriberId },
          },
          DelaySeconds: delaySeconds,
        }),
      );
    } catch (error) {
      throw stackAccessError(`the queue of ${subscriberId} (${queueUrl})`, error, 'AWS_ENDPOINT_URL_SQS');
    }
  }

  async #delete(message: Message): Promise<void> {
    try {
      await this.#sqs.send(
        new DeleteMessageCommand({ QueueUrl: this.#url, ReceiptHandle: message.ReceiptHandle ?? '' }),
      );
    } catch (error) {
      throw stackAccessError(
        `${this.#what}, deleting message ${message.MessageId} already moved back`,
        error,
        'AWS_ENDPOINT_URL_SQS',
      );
    }
  }
}

/** The subscriptions of the stack's topics, by ARN, from SNS (100 a page). */
export class SnsSubscriptionEndpoints implements SubscriptionEndpoints {
  readonly #sns: SNSClient;
  readonly #topicArns: readonly string[];

  constructor(sns: SNSClient, topicArns: readonly string[]) {
    this.#sns = sns;
    this.#topicArns = topicArns;
  }

  async endpoints(): Promise<ReadonlyMap<string, { protocol: string; endpoint: string }>> {
    const found = new Map<string, { protocol: string; endpoint: string }>();
    for (const topicArn of this.#topicArns) {
      let nextToken: string | undefined;
      do {
        try {
          const page = await this.#sns.send(
            new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, NextToken: nextToken }),
          );
          for (const subscription of page.Subscriptions ?? []) {
            if (subscription.SubscriptionArn === undefined) continue;
            found.set(subscription.SubscriptionArn, {
              protocol: subscription.Protocol ?? '',
              endpoint: subscription.Endpoint ?? '',
            });
          }
          nextToken = page.NextToken;
        } catch (error) {
          if (error instanceof StackAccessError) throw error;
          throw stackAccessError(`the subscriptions of ${topicArn}`, error, 'AWS_ENDPOINT_URL_SNS');
        }
      } while (nextToken);
    }
    return found;
  }
}

function toMessage(message: Message): SubscriptionDeadLetterMessage {
  const sentAt = Number(message.Attributes?.SentTimestamp);
  return {
    messageId: message.MessageId ?? '',
    body: message.Body ?? '',
    sentAt: Number.isFinite(sentAt) && sentAt > 0 ? new Date(sentAt).toISOString() : undefined,
  };
}
