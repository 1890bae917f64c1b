// The SQS adapter of the PublisherFailureQueue port. Received messages stay hidden for a few minutes while
// they are worked on: one that cannot be republished now is back on the queue after that, not deleted.
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type {
  FailureQueueMessage,
  PublisherFailureQueue,
} from '../../shared/operations/publisherFailureQueue.js';
import { stackAccessError } from './stackAccessError.js';

/** Time to read a batch back from the stream and publish it; then an unfinished one is visible again. */
const WORK_VISIBILITY_SECONDS = 300;
const WAIT_SECONDS = 1;
const ENDPOINT_VARIABLE = 'AWS_ENDPOINT_URL_SQS';

export class SqsPublisherFailureQueue implements PublisherFailureQueue {
  readonly #sqs: SQSClient;
  readonly #url: string;

  constructor(sqs: SQSClient, url: string) {
    this.#sqs = sqs;
    this.#url = url;
  }

  async depth(): Promise<number> {
    try {
      const answer = await this.#sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: this.#url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Object.values(answer.Attributes ?? {}).reduce((total, value) => total + (Number(value) || 0), 0);
    } catch (error) {
      throw this.#failure(error);
    }
  }

  async receive(): Promise<FailureQueueMessage[]> {
    try {
      const answer = await this.#sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.#url,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: WORK_VISIBILITY_SECONDS,
          WaitTimeSeconds: WAIT_SECONDS,
        }),
      );
      return (answer.Messages ?? []).map((message) => ({
        messageId: message.MessageId ?? '',
        receiptHandle: message.ReceiptHandle ?? '',
        body: message.Body ?? '',
      }));
    } catch (error) {
      throw this.#failure(error);
    }
  }

  async remove(receiptHandle: string): Promise<void> {
    try {
      await this.#sqs.send(new DeleteMessageCommand({ QueueUrl: this.#url, ReceiptHandle: receiptHandle }));
    } catch (error) {
      throw this.#failure(error);
    }
  }

  #failure(error: unknown) {
    return stackAccessError(`the publisher's failure queue (${this.#url})`, error, ENDPOINT_VARIABLE);
  }
}
