// Lambda event records as AWS hands them to the publisher (DynamoDB Stream, NEW_IMAGE) and to the delivery
// functions (SQS, raw SNS delivery), so tests only spell out what they vary.
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import { eventKey, ItemKind } from '../../shared/store/dynamo/stateTableKeys.js';

export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

export function queueArn(name: string): string {
  return `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`;
}

export function queueUrl(name: string): string {
  return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${name}`;
}

let messages = 0;

export interface SqsRecordOptions {
  /** The message body as SNS delivered it: by default the event's JSON. */
  body: string;
  queue: string;
  /** ApproximateReceiveCount. @default 1 */
  receiveCount?: number;
}

export function sqsRecord(options: SqsRecordOptions): SQSRecord {
  messages += 1;
  const sentAt = String(Date.now());
  return {
    messageId: `msg-${messages}`,
    receiptHandle: `receipt-${messages}`,
    body: options.body,
    attributes: {
      ApproximateReceiveCount: String(options.receiveCount ?? 1),
      SentTimestamp: sentAt,
      SenderId: 'AIDASNSSERVICE',
      ApproximateFirstReceiveTimestamp: sentAt,
    },
    messageAttributes: {},
    md5OfBody: 'not-checked',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn(options.queue),
    awsRegion: REGION,
  };
}

/**
 * An SQS record carrying `event` as the topic's `default` body. A queue named `<id>-queue` stands for
 * subscriber `<id>`'s messages on its channel's queue: the record names it in the `subscriber` attribute,
 * as the split leaves it.
 */
export function sqsEventRecord(event: OrderEvent, queue: string, receiveCount = 1): SQSRecord {
  const record = sqsRecord({ body: JSON.stringify(event), queue, receiveCount });
  const subscriberId = /^(.+)-queue$/.exec(queue)?.[1];
  return subscriberId === undefined ? record : withSubscriber(record, subscriberId);
}

let sequence = 100_000_000_000_000_000_000n;

function nextSequenceNumber(): string {
  sequence += 100n;
  return sequence.toString();
}

/** The stream record of an event item's INSERT, laid out as DynamoStateStore writes it. */
export function eventInsertRecord(
  event: OrderEvent,
  payload: string = JSON.stringify(event),
  sourceTime?: number,
): DynamoDBRecord {
  const key = eventKey(event.data.organization.id, event.id);
  return streamRecord('INSERT', {
    pk: { S: key.pk },
    sk: { S: key.sk },
    kind: { S: ItemKind.event },
    eventId: { S: event.id },
    eventType: { S: event.type },
    organizationId: { S: event.data.organization.id },
    orderUuid: { S: event.subject },
    recordedAt: { N: String(Date.now()) },
    position: { N: '0' },
    payload: { S: payload },
    ...(sourceTime === undefined ? {} : { sourceTime: { N: String(sourceTime) } }),
  });
}

/** Any other item change the stream carries: a snapshot, a disabled subscriber, a TTL removal, … */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  image: Record<string, { S: string } | { N: string }>,
): DynamoDBRecord {
  return {
    eventID: `stream-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: REGION,
    dynamodb: {
      Keys: { pk: image.pk ?? { S: 'ORG#x' }, sk: image.sk ?? { S: 'x' } },
      ...(eventName === 'REMOVE' ? {} : { NewImage: image }),
      SequenceNumber: nextSequenceNumber(),
      SizeBytes: 100,
      StreamViewType: 'NEW_IMAGE',
    },
    eventSourceARN: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/state/stream/2026-01-01T00:00:00.000`,
  };
}

/** The SequenceNumber of a stream record built here (always set). */
export function sequenceOf(record: DynamoDBRecord): string {
  const value = record.dynamodb?.SequenceNumber;
  if (value === undefined) throw new Error('stream record without a SequenceNumber');
  return value;
}

/** The record of a delivery message: the split (or a replay) names its subscriber in the `subscriber` attribute. */
export function withSubscriber(record: SQSRecord, subscriberId: string): SQSRecord {
  return {
    ...record,
    messageAttributes: {
      ...record.messageAttributes,
      subscriber: {
        dataType: 'String',
        stringValue: subscriberId,
        stringListValues: [],
        binaryListValues: [],
      },
    },
  };
}
