// The SQS adapter of the DeliveryQueues port: a Slack or webhook subscriber's messages on its channel's
// delivery queue and dead-letter queue (shared by every subscriber of the type, by the URLs the stack's
// outputs give), told apart by the `subscriber` attribute each message carries.
//
// Reading a dead-letter queue takes its messages for a few seconds only (long enough to page through it)
// and gives them back at once after; nothing is deleted except by a redrive, and only once its copy is on
// the subscriber's queue. The subscriber's own queue is never read: a receive there would count as a
// delivery attempt (the function reads ApproximateReceiveCount) and push messages toward the dead-letter
// queue.
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  type MessageAttributeValue,
  type QueueAttributeName,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  DEAD_LETTER_ATTRIBUTES,
  SUBSCRIBER_ATTRIBUTE,
} from '../../shared/contracts/deliveryQueueContract.js';
import { defaultHighlightWords } from '../../shared/delivery/highlightWordsOf.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import type {
  DeadLetterMessage,
  DeliveryQueues,
  SendOptions,
} from '../../shared/operations/deliveryQueues.js';
import { StackAccessError } from '../../shared/operations/errors.js';
import type { SubscriberQueueUrls } from '../../shared/operations/stackResources.js';
import { chunkForPublishBatch, publishEntry } from '../../shared/publish/publishEntries.js';
import { counted } from '../../shared/text/counted.js';
import { giveBack, receiveMessages, SQS_BATCH_MAX_ENTRIES } from './sqsPeek.js';
import { stackAccessError } from './stackAccessError.js';

/** Long enough to page through a queue, short enough that the delivery tooling barely notices. */
const PEEK_VISIBILITY_SECONDS = 30;
/** A message being moved stays hidden this long, so a failed move is not retried within the same run. */
const MOVE_VISIBILITY_SECONDS = 120;
/** Long polling asks every SQS server, so a small queue does not look empty. */
/** SQS caps one SendMessageBatch at 262,144 bytes of bodies and attributes, like SNS. */
const SQS_BATCH_MAX_BYTES = 262_144;
const ENDPOINT_VARIABLE = 'AWS_ENDPOINT_URL_SQS';
const DEAD_LETTER_NAMES = new Set<string>(Object.values(DEAD_LETTER_ATTRIBUTES));
/** How many of a subscriber's dead letters `depth` counts at most (it reads the shared queue to count). */
const DEAD_LETTERS_COUNTED = 1_000;

export class SqsDeliveryQueues implements DeliveryQueues {
  readonly #sqs: SQSClient;
  readonly #queues: ReadonlyMap<string, SubscriberQueueUrls>;

  constructor(sqs: SQSClient, queues: ReadonlyMap<string, SubscriberQueueUrls>) {
    this.#sqs = sqs;
    this.#queues = queues;
  }

  knows(subscriberId: string): boolean {
    return this.#queues.has(subscriberId);
  }

  async channelQueued(subscriberId: string): Promise<number> {
    const urls = this.#urls(subscriberId);
    const queue = await this.#attributes(`the queue of ${subscriberId}`, urls.queueUrl, [
      'ApproximateNumberOfMessages',
      'ApproximateNumberOfMessagesNotVisible',
      'ApproximateNumberOfMessagesDelayed',
    ]);
    return sum(queue);
  }

  /** Counted by reading them, up to DEAD_LETTERS_COUNTED. */
  async deadCount(subscriberId: string): Promise<number> {
    return (await this.deadLetters(subscriberId, DEAD_LETTERS_COUNTED)).length;
  }

  async deadLetters(subscriberId: string, limit: number): Promise<DeadLetterMessage[]> {
    const what = `the dead-letter queue of ${subscriberId}`;
    const url = this.#urls(subscriberId).deadLetterQueueUrl;
    // Every message taken is given back, the other subscribers' too: only theirs are listed.
    const taken = new Map<string, Message>();
    const mine: Message[] = [];
    try {
      while (mine.length < limit) {
        const received = await receiveMessages(
          this.#sqs,
          what,
          url,
          SQS_BATCH_MAX_ENTRIES,
          PEEK_VISIBILITY_SECONDS,
        );
        const fresh = received.filter((message) => message.MessageId && !taken.has(message.MessageId));
        if (fresh.length === 0) break;
        for (const message of fresh) {
          taken.set(message.MessageId ?? '', message);
          if (subscriberOf(message) === subscriberId && mine.length < limit) mine.push(message);
        }
      }
    } finally {
      await giveBack(this.#sqs, url, [...taken.values()]);
    }
    return mine.map(toDeadLetter);
  }

  async redrive(subscriberId: string, options: SendOptions): Promise<number> {
    const urls = this.#urls(subscriberId);
    const what = `the dead-letter queue of ${subscriberId}`;
    const seen = new Set<string>();
    const others: Message[] = [];
    const problems: string[] = [];
    let moved = 0;
    try {
      for (;;) {
        const received = await receiveMessages(
          this.#sqs,
          what,
          urls.deadLetterQueueUrl,
          SQS_BATCH_MAX_ENTRIES,
          MOVE_VISIBILITY_SECONDS,
        );
        const unseen = received.filter((message) => message.MessageId && !seen.has(message.MessageId));
        if (unseen.length === 0) break;
        for (const message of unseen) seen.add(message.MessageId ?? '');
        // The other subscribers' dead letters stay where they are, given back below.
        const fresh = unseen.filter((message) => subscriberOf(message) === subscriberId);
        others.push(...unseen.filter((message) => subscriberOf(message) !== subscriberId));
        if (fresh.length === 0) continue;
        const entries = fresh.map((message, index) => ({
          Id: `m${index}`,
          MessageBody: message.Body ?? '',
          MessageGroupId: subscriberId,
          MessageAttributes: {
            ...originalAttributes(message.MessageAttributes),
            [SUBSCRIBER_ATTRIBUTE]: { DataType: 'String', StringValue: subscriberId },
          },
          DelaySeconds: options.delaySeconds,
        }));
        const { sent, failed } = await this.#sendBatch(
          `the queue of ${subscriberId}`,
          urls.queueUrl,
          entries,
        );
        problems.push(...failed);
        // Deleted only once the copy is on the queue: a failure in between sends it twice, never loses it.
        const done = fresh.filter((_, index) => sent.has(`m${index}`));
        await this.#delete(what, urls.deadLetterQueueUrl, done);
        moved += done.length;
      }
    } finally {
      await giveBack(this.#sqs, urls.deadLetterQueueUrl, others);
    }
    if (problems.length > 0) {
      throw new StackAccessError(
        `the queue of ${subscriberId}`,
        `${counted(moved, 'message')} moved back, ${problems.length} left on the dead-letter queue: ${problems[0]}`,
      );
    }
    return moved;
  }

  async send(subscriberId: string, events: readonly NotifierEvent[], options: SendOptions): Promise<void> {
    const url = this.#urls(subscriberId).queueUrl;
    const messages = events.map((event) => ({ event, ...queueMessage(event) }));
    const bytesOf = (message: (typeof messages)[number]) =>
      Buffer.byteLength(message.body) + attributeBytes(message.attributes);
    const problems: string[] = [];
    for (const chunk of chunkForPublishBatch(messages, bytesOf, {
      maxEntries: SQS_BATCH_MAX_ENTRIES,
      maxBytes: SQS_BATCH_MAX_BYTES,
    })) {
      const entries = chunk.map((message, index) => ({
        Id: `e${index}`,
        MessageBody: message.body,
        // Its subscriber's message group (the fair queue's tenant), and named, so no split is made again.
        MessageGroupId: subscriberId,
        MessageAttributes: {
          ...message.attributes,
          [SUBSCRIBER_ATTRIBUTE]: { DataType: 'String', StringValue: subscriberId },
        },
        DelaySeconds: options.delaySeconds,
      }));
      const { failed } = await this.#sendBatch(`the queue of ${subscriberId}`, url, entries, (id) => {
        const index = Number(id.slice(1));
        return chunk[index]?.event.id ?? id;
      });
      problems.push(...failed);
    }
    if (problems.length > 0) {
      throw new StackAccessError(
        `the queue of ${subscriberId}`,
        `${events.length - problems.length} of ${counted(events.length, 'event')} queued; not queued: ${problems.join('; ')}`,
      );
    }
  }

  #urls(subscriberId: string): SubscriberQueueUrls {
    const urls = this.#queues.get(subscriberId);
    if (!urls)
      throw new StackAccessError(`the queues of ${subscriberId}`, 'the stack outputs do not name them');
    return urls;
  }

  async #attributes(what: string, url: string, names: QueueAttributeName[]): Promise<Record<string, string>> {
    try {
      const answer = await this.#sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: names }),
      );
      return answer.Attributes ?? {};
    } catch (error) {
      throw stackAccessError(`${what} (${url})`, error, ENDPOINT_VARIABLE);
    }
  }

  async #sendBatch(
    what: string,
    url: string,
    entries: SendMessageBatchRequestEntry[],
    nameOf: (id: string) => string = (id) => id,
  ): Promise<{ sent: Set<string>; failed: string[] }> {
    try {
      const answer = await this.#sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
      const sent = new Set((answer.Successful ?? []).map(({ Id }) => Id ?? ''));
      const failed = entries
        .filter(({ Id }) => !sent.has(Id ?? ''))
        .map(({ Id }) => {
          const refusal = answer.Failed?.find((entry) => entry.Id === Id);
          return `${nameOf(Id ?? '')}: ${refusal ? `${refusal.Code}${refusal.Message ? ` (${refusal.Message})` : ''}` : 'not confirmed'}`;
        });
      return { sent, failed };
    } catch (error) {
      throw stackAccessError(`${what} (${url})`, error, ENDPOINT_VARIABLE);
    }
  }

  async #delete(what: string, url: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    try {
      await this.#sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: messages.map((message, index) => ({
            Id: `m${index}`,
            ReceiptHandle: message.ReceiptHandle ?? '',
          })),
        }),
      );
    } catch (error) {
      // The copies are on the queue already: what is left on the dead-letter queue would be sent twice.
      throw stackAccessError(
        `${what} (${url}), deleting messages already moved back`,
        error,
        ENDPOINT_VARIABLE,
      );
    }
  }
}

/**
 * What the event topic delivers to a subscriber's queue for `event` (raw message delivery): the `default`
 * body of the publisher's entry and its message attributes, from the publisher's own code, so a replayed
 * message cannot differ from a published one.
 */
export function queueMessage(event: NotifierEvent): {
  body: string;
  attributes: Record<string, MessageAttributeValue>;
} {
  // Only the `default` body is kept: the e-mail body, whose flags need the organization's words, is not.
  const entry = publishEntry(event, defaultHighlightWords);
  const bodies = JSON.parse(entry.Message ?? '{}') as { default?: string };
  return { body: bodies.default ?? JSON.stringify(event), attributes: { ...entry.MessageAttributes } };
}

/** The subscriber a message of the channel's queues is for; undefined for one no subscriber had yet. */
function subscriberOf(message: Message): string | undefined {
  return message.MessageAttributes?.[SUBSCRIBER_ATTRIBUTE]?.StringValue;
}

function toDeadLetter(message: Message): DeadLetterMessage {
  const attributes = message.MessageAttributes ?? {};
  const text = (name: string) => attributes[name]?.StringValue;
  const number = (name: string) => {
    const value = Number(text(name));
    return text(name) === undefined || Number.isNaN(value) ? undefined : value;
  };
  const sentAt = Number(message.Attributes?.SentTimestamp);
  return {
    messageId: message.MessageId ?? '',
    body: message.Body ?? '',
    kind: text(DEAD_LETTER_ATTRIBUTES.kind),
    reason: text(DEAD_LETTER_ATTRIBUTES.reason),
    attempts: number(DEAD_LETTER_ATTRIBUTES.attempts),
    httpStatus: number(DEAD_LETTER_ATTRIBUTES.status),
    deadLetteredAt:
      text(DEAD_LETTER_ATTRIBUTES.deadLetteredAt) ??
      (Number.isFinite(sentAt) && sentAt > 0 ? new Date(sentAt).toISOString() : undefined),
  };
}

/** The message's attributes without the dead-letter ones: the reason would mislead once it is back. */
function originalAttributes(
  attributes: Record<string, MessageAttributeValue> | undefined,
): Record<string, MessageAttributeValue> | undefined {
  const kept = Object.entries(attributes ?? {}).filter(([name]) => !DEAD_LETTER_NAMES.has(name));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function attributeBytes(attributes: Record<string, MessageAttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(attributes)) {
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(value.DataType ?? '') +
      Buffer.byteLength(value.StringValue ?? '');
  }
  return bytes;
}

function sum(attributes: Record<string, string>): number {
  return Object.values(attributes).reduce((total, value) => total + (Number(value) || 0), 0);
}
