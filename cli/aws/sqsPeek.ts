// Reading a queue the operator commands look into without consuming it: a short receive that hides what it
// took for a while, and the give-back that makes it visible again at once. Shared by the delivery queues'
// adapter and the SNS dead-letter queue's.
import {
  ChangeMessageVisibilityBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { stackAccessError } from './stackAccessError.js';

/** SQS's most entries in one batch request (and messages in one receive). */
export const SQS_BATCH_MAX_ENTRIES = 10;
/** A short long poll: an empty queue answers within a second. */
const WAIT_SECONDS = 1;

/**
 * Up to `max` messages of the queue, hidden for `visibilitySeconds`, with every attribute and their send
 * time. @throws StackAccessError naming `what` and the queue URL
 */
export async function receiveMessages(
  sqs: SQSClient,
  what: string,
  url: string,
  max: number,
  visibilitySeconds: number,
): Promise<Message[]> {
  try {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: max,
        VisibilityTimeout: visibilitySeconds,
        WaitTimeSeconds: WAIT_SECONDS,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['SentTimestamp'],
      }),
    );
    return answer.Messages ?? [];
  } catch (error) {
    throw stackAccessError(`${what} (${url})`, error, 'AWS_ENDPOINT_URL_SQS');
  }
}

/** Makes peeked messages visible again at once; if this fails they come back on their own in seconds. */
export async function giveBack(sqs: SQSClient, url: string, messages: readonly Message[]): Promise<void> {
  for (let start = 0; start < messages.length; start += SQS_BATCH_MAX_ENTRIES) {
    const chunk = messages.slice(start, start + SQS_BATCH_MAX_ENTRIES);
    try {
      await sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: url,
          Entries: chunk.map((message, index) => ({
            Id: `m${index}`,
            ReceiptHandle: message.ReceiptHandle ?? '',
            VisibilityTimeout: 0,
          })),
        }),
      );
    } catch {
      // Their visibility timeout is short: they reappear by themselves.
    }
  }
}
