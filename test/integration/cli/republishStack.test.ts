// `meal-notifier republish --stack`: the state table on DynamoDB Local, whose real stream the command reads
// the failed batch back from, with SQS (the failure queue) and SNS (the event topic) mocked. It publishes
// exactly the events of the batch's sequence range, as the publisher does, and deletes the record only once
// all are out; a batch the stream no longer holds is published by its time window only when asked.

import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { PublishBatchCommand, type PublishBatchCommandInput, SNSClient } from '@aws-sdk/client-sns';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventMessageAttributes } from '../../../shared/contracts/messageAttributes.js';
import { snsMessageBody } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import {
  type DeployedStackFixture,
  deployedStackFixture,
  FAILURE_QUEUE_URL,
  stubStackEnv,
  TOPIC_ARN,
} from '../../support/deployedStackFixture.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../../support/stateStoreConformance.js';

const sqs = mockClient(SQSClient);
const sns = mockClient(SNSClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
  sns.restore();
});
let stack: DeployedStackFixture;
let streamArn: string;
let shardId: string;
/** Stream sequence number of each event's INSERT, by event id. */
const sequenceOf = new Map<string, string>();

const first = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
const second = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.canceled');
const later = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.completed');

beforeAll(async () => {
  stack = await deployedStackFixture();
  for (const event of [first, second, later]) {
    await stack.store.commitChange(NORTH_SCHOOL_ID, {
      snapshot: makeSnapshot(event.subject),
      events: [event],
    });
  }
  const table = await stack.table.client.send(new DescribeTableCommand({ TableName: stack.table.tableName }));
  streamArn = table.Table?.LatestStreamArn ?? '';
  const streams = new DynamoDBStreamsClient({
    endpoint: stack.env.AWS_ENDPOINT_URL_DYNAMODB,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const stream = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  shardId = stream.StreamDescription?.Shards?.[0]?.ShardId ?? '';
  const { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shardId,
      ShardIteratorType: 'TRIM_HORIZON',
    }),
  );
  const { Records } = await streams.send(new GetRecordsCommand({ ShardIterator }));
  for (const record of Records ?? []) {
    const eventId = record.dynamodb?.NewImage?.eventId?.S;
    if (eventId) sequenceOf.set(eventId, record.dynamodb?.SequenceNumber ?? '');
  }
  streams.destroy();
});

afterAll(async () => {
  await stack.close();
});

beforeEach(() => {
  stubStackEnv(stack);
  sqs.on(ReceiveMessageCommand).resolves({ Messages: [] });
  sqs.on(DeleteMessageCommand).resolves({});
  sns.on(PublishBatchCommand).callsFake((input: PublishBatchCommandInput) => ({
    Successful: (input.PublishBatchRequestEntries ?? []).map(({ Id }) => ({ Id, MessageId: `sns-${Id}` })),
    Failed: [],
  }));
});

afterEach(() => {
  sqs.reset();
  sns.reset();
  vi.unstubAllEnvs();
});

/** The record Lambda puts on the failure queue for a batch from `from`'s INSERT to `to`'s. */
function failureRecord(from: OrderEvent, to: OrderEvent, shard = shardId): string {
  const now = new Date().toISOString().slice(0, 19);
  return JSON.stringify({
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 21 },
    version: '1.0',
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: {
      shardId: shard,
      startSequenceNumber: sequenceOf.get(from.id),
      endSequenceNumber: sequenceOf.get(to.id),
      approximateArrivalOfFirstRecord: `${now}Z`,
      approximateArrivalOfLastRecord: `${now}Z`,
      batchSize: 3,
      streamArn,
    },
  });
}

function onFailureQueue(...bodies: string[]) {
  sqs
    .on(ReceiveMessageCommand, { QueueUrl: FAILURE_QUEUE_URL })
    .resolvesOnce({
      Messages: bodies.map((Body, index) => ({ MessageId: `f-${index}`, ReceiptHandle: `h-${index}`, Body })),
    })
    .resolves({ Messages: [] });
}

function publishedIds(): string[] {
  return sns
    .commandCalls(PublishBatchCommand)
    .flatMap((call) => call.args[0].input.PublishBatchRequestEntries ?? [])
    .map((entry) => JSON.parse(JSON.parse(entry.Message ?? '').default).id);
}

describe('meal-notifier republish --stack', () => {
  it("publishes the batch's events as the publisher does, then deletes its record from the failure queue", async () => {
    onFailureQueue(failureRecord(first, second));

    const result = await runCliInProcess(['republish', ...stack.stackArgs]);

    expect(result.code).toBe(0);
    // The range's events, in stream order; the snapshot items between them and the later event are not.
    expect(publishedIds()).toEqual([first.id, second.id]);
    expect(sns).toHaveReceivedCommandWith(PublishBatchCommand, {
      TopicArn: TOPIC_ARN,
      PublishBatchRequestEntries: [
        expect.objectContaining({
          Message: snsMessageBody(first, defaultHighlightWords),
          MessageStructure: 'json',
          // Without the source time, timely for the config's one threshold (its people's default 15 min).
          MessageAttributes: eventMessageAttributes(first, { catchUpAfterSeconds: [900] }),
        }),
        expect.objectContaining({ Message: snsMessageBody(second, defaultHighlightWords) }),
      ],
    });
    expect(sqs).toHaveReceivedCommandWith(DeleteMessageCommand, {
      QueueUrl: FAILURE_QUEUE_URL,
      ReceiptHandle: 'h-0',
    });
    expect(result.stderr).toContain(`shard ${shardId}, sequence numbers`);
    expect(result.stderr).toContain('2 events published; removed from the queue');
  });

  it('leaves the record on the queue when SNS refuses an event, and says so', async () => {
    onFailureQueue(failureRecord(first, second));
    sns.on(PublishBatchCommand).resolves({
      Successful: [{ Id: 'e0', MessageId: 'sns-e0' }],
      Failed: [{ Id: 'e1', Code: 'KMSAccessDenied', SenderFault: true, Message: 'no access to the key' }],
    });

    const result = await runCliInProcess(['republish', ...stack.stackArgs]);

    expect(result.code).toBe(1);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(result.stderr).toContain(
      `left on the queue: 1 event not published, e.g. ${second.id}: SNS refused the entry: KMSAccessDenied (no access to the key)`,
    );
  });

  /** A batch on a shard the stream does not hold (any more). */
  const GONE_SHARD = 'shardId-00000000000000000000-00000000';

  it('leaves a batch the stream no longer holds, and tells how to publish it by time', async () => {
    onFailureQueue(failureRecord(first, second, GONE_SHARD));

    const result = await runCliInProcess(['republish', ...stack.stackArgs]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the stream no longer holds shard ${GONE_SHARD}`);
    expect(result.stderr).toContain('rerun with --by-time');
    expect(sns).not.toHaveReceivedCommand(PublishBatchCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
  });

  it('with --by-time, publishes every event recorded while that batch reached the stream', async () => {
    onFailureQueue(failureRecord(first, second, GONE_SHARD));

    const result = await runCliInProcess(['republish', ...stack.stackArgs, '--by-time']);

    expect(result.code).toBe(0);
    // The batch's events, and the later one written in the same minute: the window cannot tell them apart.
    expect(publishedIds()).toEqual([first.id, second.id, later.id]);
    expect(sqs).toHaveReceivedCommandWith(DeleteMessageCommand, { ReceiptHandle: 'h-0' });
  });

  it('leaves a message that is not a failed-batch record, and says it has nothing to do on an empty queue', async () => {
    onFailureQueue('{"hello":"world"}');
    const odd = await runCliInProcess(['republish', ...stack.stackArgs]);
    expect(odd.code).toBe(1);
    expect(odd.stderr).toContain('not a record of a failed stream batch (DDBStreamBatchInfo');
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);

    const empty = await runCliInProcess(['republish', ...stack.stackArgs]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe('the publisher gave up on nothing: its failure queue is empty\n');
  });

  it('needs --stack', async () => {
    const result = await runCliInProcess(['republish', '--config', stack.configPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('meal-notifier: republish works on a deployed stack: give --stack NAME\n');
  });
});
