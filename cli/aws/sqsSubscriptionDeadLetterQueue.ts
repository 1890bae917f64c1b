// The SQS adapter of the SubscriptionDeadLetterQueue port (the SNS subscriptions' dead-letter queue), and
// the SNS ones of SubscriptionEndpoints and EmailResender. Reading takes messages for a few seconds and
// gives them back at once; a message is deleted only once its copy is on the subscriber's queue, or SNS
// accepted its re-sent e-mail.
import {
  GetSubscriptionAttributesCommand,
  ListSubscriptionsByTopicCommand,
  PublishCommand,
  type SNSClient,
} from '@aws-sdk/client-sns';
import { DeleteMessageCommand, type Message, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SUBSCRIBER_ATTRIBUTE } from '../../shared/contracts/deliveryQueueContract.js';
import { StackAccessError } from '../../shared/operations/errors.js';
import type { SubscriberQueueUrls } from '../../shared/operations/stackResources.js';
import type {
  EmailResender,
  EmailSubscriptionState,
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
    return this.#drain(async (message) => {
      const subscriberId = destination(toMessage(message));
      const queueUrl =
        subscriberId === undefined ? undefined : this.#subscriberQueues.get(subscriberId)?.queueUrl;
      if (subscriberId === undefined || queueUrl === undefined) return false;
      await this.#send(subscriberId, queueUrl, message, options.delaySeconds);
      return true;
    });
  }

  settleEach(settle: (message: SubscriptionDeadLetterMessage) => Promise<boolean>): Promise<string[]> {
    return this.#drain((message) => settle(toMessage(message)));
  }

  /**
   * Receives every message once and settles each: deleted once `settle` says it is done (a failure in
   * between sends it twice, never loses it), given back otherwise. When `settle` throws, that message and
   * the rest of its batch are given back: none of them is lost or sent twice.
   */
  async #drain(settle: (message: Message) => Promise<boolean>): Promise<string[]> {
    const seen = new Set<string>();
    const kept: Message[] = [];
    const settled: string[] = [];
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
        for (const [index, message] of fresh.entries()) {
          seen.add(message.MessageId ?? '');
          let done: boolean;
          try {
            done = await settle(message);
          } catch (error) {
            kept.push(...fresh.slice(index));
            throw error;
          }
          if (!done) {
            kept.push(message);
            continue;
          }
          await this.#delete(message);
          settled.push(message.MessageId ?? '');
        }
      }
    } finally {
      await giveBack(this.#sqs, this.#url, kept);
    }
    return settled;
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

/** Re-sends an e-mail through the event topic; reads a subscription's endpoint and filter policy. */
export class SnsEmailResender implements EmailResender {
  readonly #sns: SNSClient;
  readonly topicArn: string;

  constructor(sns: SNSClient, topicArn: string) {
    this.#sns = sns;
    this.topicArn = topicArn;
  }

  async subscription(subscriptionArn: string): Promise<EmailSubscriptionState | undefined> {
    let attributes: Record<string, string> | undefined;
    try {
      ({ Attributes: attributes } = await this.#sns.send(
        new GetSubscriptionAttributesCommand({ SubscriptionArn: subscriptionArn }),
      ));
    } catch (error) {
      if (error instanceof Error && error.name === 'NotFoundException') return undefined;
      throw stackAccessError(`the subscription ${subscriptionArn}`, error, 'AWS_ENDPOINT_URL_SNS');
    }
    const policy = attributes?.FilterPolicy;
    let filterPolicy: unknown;
    try {
      filterPolicy = policy === undefined ? undefined : JSON.parse(policy);
    } catch {
      filterPolicy = undefined;
    }
    return { endpoint: attributes?.Endpoint ?? '', filterPolicy };
  }

  async publish(message: Parameters<EmailResender['publish']>[0]): Promise<void> {
    try {
      await this.#sns.send(
        new PublishCommand({
          TopicArn: this.topicArn,
          Message: message.body,
          ...(message.subject === undefined ? {} : { Subject: message.subject }),
          MessageAttributes: message.attributes,
        }),
      );
    } catch (error) {
      throw stackAccessError(`the event topic ${this.topicArn}`, error, 'AWS_ENDPOINT_URL_SNS');
    }
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
