// Puts a message its function gave up on onto the subscriber's dead-letter queue: the original body, so
// an SQS redrive back to the source queue replays it as it was, and the reason in message attributes, so
// an operator reading the DLQ knows why without digging through logs.
import { type MessageAttributeValue, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DEAD_LETTER_ATTRIBUTES } from '../../contracts/deliveryQueueContract.js';

export type DeadLetterKind = 'dead' | 'gone' | 'retries_exhausted' | 'malformed' | 'subscriber_disabled';

export interface DeadLetter {
  kind: DeadLetterKind;
  reason: string;
  /** Absent for a message no subscriber had yet (an intake message that could not be split). */
  subscriberId?: string;
  eventId?: string;
  status?: number;
  attempts: number;
  atMs: number;
}

/** Attribute values count against the message size; a reason is a line, not a document. */
const MAX_REASON_CHARS = 1_000;

export function deadLetterAttributes(letter: DeadLetter): Record<string, MessageAttributeValue> {
  const text = (value: string): MessageAttributeValue => ({ DataType: 'String', StringValue: value });
  const number = (value: number): MessageAttributeValue => ({
    DataType: 'Number',
    StringValue: String(value),
  });
  const reason =
    letter.reason.length > MAX_REASON_CHARS
      ? `${letter.reason.slice(0, MAX_REASON_CHARS - 1)}…`
      : letter.reason;
  return {
    [DEAD_LETTER_ATTRIBUTES.kind]: text(letter.kind),
    // SQS refuses an empty String attribute.
    [DEAD_LETTER_ATTRIBUTES.reason]: text(reason || letter.kind),
    ...(letter.subscriberId ? { [DEAD_LETTER_ATTRIBUTES.subscriber]: text(letter.subscriberId) } : {}),
    [DEAD_LETTER_ATTRIBUTES.attempts]: number(letter.attempts),
    [DEAD_LETTER_ATTRIBUTES.deadLetteredAt]: text(new Date(letter.atMs).toISOString()),
    ...(letter.eventId ? { [DEAD_LETTER_ATTRIBUTES.eventId]: text(letter.eventId) } : {}),
    ...(letter.status === undefined ? {} : { [DEAD_LETTER_ATTRIBUTES.status]: number(letter.status) }),
  };
}

/** @throws the SQS error: the caller leaves the source message in place, to be settled later */
export async function sendToDeadLetterQueue(
  sqs: SQSClient,
  queueUrl: string,
  body: string,
  letter: DeadLetter,
): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      // SQS refuses an empty body; SNS never sends one, but a hand-made test message might.
      MessageBody: body === '' ? '(empty message body)' : body,
      MessageAttributes: deadLetterAttributes(letter),
    }),
  );
}
