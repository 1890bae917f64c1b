// The shared request budget's DynamoDB requests on a mocked client: optimistic writes of the sliding log,
// retries after losing a race, no writes on refusal, and pauses that never shorten.
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoBudgetCounterStore } from '../../../shared/store/dynamo/dynamoBudgetCounterStore.js';
import { DynamoMetrics } from '../../../shared/store/dynamo/dynamoMetrics.js';
import { StoreContentionError, StoreThrottledError } from '../../../shared/store/errors.js';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'state-table';
const KEY = 'token#abc';
const WINDOW = 60_000;
const T0 = 1_000_000;

afterEach(() => {
  ddb.reset();
});

function newCounters(metrics = new DynamoMetrics()): DynamoBudgetCounterStore {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return new DynamoBudgetCounterStore(client, TABLE, metrics);
}

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'changed', $metadata: {} });

describe('DynamoBudgetCounterStore requests', () => {
  it('creates the log with a write that succeeds only if nobody created it first', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});

    expect(await newCounters().tryTake(KEY, T0, 5, WINDOW)).toEqual({ granted: true, remaining: 4 });

    expect(ddb).toHaveReceivedCommandWith(GetCommand, {
      Key: { pk: `BUDGET#${KEY}`, sk: 'LOG' },
      ConsistentRead: true,
    });
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { pk: `BUDGET#${KEY}`, sk: 'LOG' },
      ConditionExpression: 'attribute_not_exists(#revision)',
      ExpressionAttributeValues: expect.objectContaining({ ':times': [T0], ':next': 1 }),
    });
  });

  it('re-reads and decides again when another writer changed the log first', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { times: [], revision: 3 } })
      .resolvesOnce({ Item: { times: [T0 - 10], revision: 4 } });
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolvesOnce({});

    expect(await newCounters().tryTake(KEY, T0, 5, WINDOW)).toEqual({ granted: true, remaining: 3 });

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 2);
    expect(ddb).toHaveReceivedNthCommandWith(UpdateCommand, 1, {
      ConditionExpression: '#revision = :read',
      ExpressionAttributeValues: expect.objectContaining({ ':read': 3, ':times': [T0] }),
    });
    expect(ddb).toHaveReceivedNthCommandWith(UpdateCommand, 2, {
      ExpressionAttributeValues: expect.objectContaining({ ':read': 4, ':next': 5, ':times': [T0 - 10, T0] }),
    });
  });

  it('writes nothing when it refuses, and forgets requests that left the window', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: [T0 - WINDOW, T0 - 20_000, T0 - 10_000], revision: 9 } });

    expect(await newCounters().tryTake(KEY, T0, 2, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 - 20_000 + WINDOW,
    });
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });

  it('gives up with a retryable StoreContentionError when it never wins the race', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: [], revision: 1 } });
    ddb.on(UpdateCommand).rejects(conditionFailed());

    await expect(newCounters().tryTake(KEY, T0, 5, WINDOW)).rejects.toBeInstanceOf(StoreContentionError);
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 25);
  });

  it('pauses with a write that only lengthens a pause, and bumps the revision so racing takes re-read', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());

    await expect(newCounters().pauseUntil(KEY, T0 + 5_000)).resolves.toBeUndefined();

    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression: 'SET #kind = :kind, #paused = :until, #ttl = :ttl ADD #revision :one',
      ConditionExpression: 'attribute_not_exists(#paused) OR #paused < :until',
      ExpressionAttributeValues: expect.objectContaining({ ':until': T0 + 5_000, ':one': 1 }),
    });
  });

  it('turns throttling into a StoreThrottledError and counts the failed request', async () => {
    ddb
      .on(GetCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }));
    const metrics = new DynamoMetrics();

    const error = await newCounters(metrics)
      .remaining(KEY, T0, 5, WINDOW)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ operation: 'budget', organization: undefined });
    expect(metrics.snapshot().byOperation.budget.readRequests).toBe(1);
  });
});
