// The shared request budget's DynamoDB requests on a mocked client: optimistic writes of the sliding log
// (takes, reservations, releases), retries after losing a race, no writes on refusal, and pauses that
// never shorten.
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
import { StateTableClient } from '../../../shared/store/dynamo/stateTableClient.js';
import { ttlSeconds } from '../../../shared/store/dynamo/stateTableKeys.js';
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
  return new DynamoBudgetCounterStore(new StateTableClient({ client, tableName: TABLE, metrics }));
}

/** One request counted now: how RequestBudget takes a request outside a cycle's reservation. */
const ONE_NOW = { atLeast: 1, atMost: 1, countAtMs: T0 };

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'changed', $metadata: {} });

describe('DynamoBudgetCounterStore requests', () => {
  it('creates the log with a write that succeeds only if nobody created it first', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});

    expect(await newCounters().reserve(KEY, T0, ONE_NOW, 5, WINDOW)).toEqual({ granted: 1 });

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

    expect(await newCounters().reserve(KEY, T0, ONE_NOW, 5, WINDOW)).toEqual({ granted: 1 });

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

    expect(await newCounters().reserve(KEY, T0, ONE_NOW, 2, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 - 20_000 + WINDOW,
    });
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });

  it('gives up with a retryable StoreContentionError when it never wins the race', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: [], revision: 1 } });
    ddb.on(UpdateCommand).rejects(conditionFailed());

    await expect(newCounters().reserve(KEY, T0, ONE_NOW, 5, WINDOW)).rejects.toBeInstanceOf(
      StoreContentionError,
    );
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

  it('reserves with one read and one conditional write of the sorted log, future times included', async () => {
    // Stored out of order, with one time that has left the window.
    ddb.on(GetCommand).resolves({ Item: { times: [T0 + 8_000, T0 - WINDOW, T0 - 10], revision: 2 } });
    ddb.on(UpdateCommand).resolves({});
    const request = { atLeast: 1, atMost: 5, countAtMs: T0 + 5_000 };

    expect(await newCounters().reserve(KEY, T0, request, 5, WINDOW)).toEqual({ granted: 3 });

    expect(ddb).toHaveReceivedCommandTimes(GetCommand, 1);
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: '#revision = :read',
      ExpressionAttributeValues: expect.objectContaining({
        ':read': 2,
        ':next': 3,
        ':times': [T0 - 10, T0 + 5_000, T0 + 5_000, T0 + 5_000, T0 + 8_000],
        // The log lives until its latest time has left the window, plus the idle day.
        ':ttl': ttlSeconds(T0 + 8_000 + WINDOW + 86_400_000),
      }),
    });
  });

  it('decides a reservation again on the re-read log after losing a race', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { times: [], revision: 1 } })
      .resolvesOnce({ Item: { times: [T0 - 5, T0 - 4, T0 - 3], revision: 2 } });
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolvesOnce({});
    const request = { atLeast: 1, atMost: 4, countAtMs: T0 + 2_000 };

    expect(await newCounters().reserve(KEY, T0, request, 5, WINDOW)).toEqual({ granted: 2 });

    expect(ddb).toHaveReceivedNthCommandWith(UpdateCommand, 2, {
      ExpressionAttributeValues: expect.objectContaining({
        ':read': 2,
        ':times': [T0 - 5, T0 - 4, T0 - 3, T0 + 2_000, T0 + 2_000],
      }),
    });
  });

  it('writes nothing when fewer than atLeast fit, or while paused', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { times: [T0 - 30_000, T0 - 20_000, T0 - 10_000], revision: 3 } })
      .resolvesOnce({ Item: { times: [], pausedUntil: T0 + 9_000, revision: 4 } });
    const counters = newCounters();
    const request = { atLeast: 3, atMost: 5, countAtMs: T0 + 2_000 };

    expect(await counters.reserve(KEY, T0, request, 4, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 - 20_000 + WINDOW,
    });
    expect(await counters.reserve(KEY, T0, request, 4, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 + 9_000,
    });
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });

  it('releases with one read and one conditional write that removes that many entries at that time', async () => {
    ddb.on(GetCommand).resolves({
      Item: { times: [T0, T0 + 5_000, T0 + 5_000, T0 + 5_000, T0 + 6_000], revision: 7 },
    });
    ddb.on(UpdateCommand).resolves({});

    await newCounters().release(KEY, T0 + 5_000, 2);

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: '#revision = :read',
      ExpressionAttributeValues: expect.objectContaining({
        ':read': 7,
        ':next': 8,
        ':times': [T0, T0 + 5_000, T0 + 6_000],
      }),
    });
  });

  it('releases again on the re-read log after losing a race', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { times: [T0 + 5_000, T0 + 5_000], revision: 1 } })
      .resolvesOnce({ Item: { times: [T0 + 1, T0 + 5_000, T0 + 5_000], revision: 2 } });
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolvesOnce({});

    await newCounters().release(KEY, T0 + 5_000, 5);

    expect(ddb).toHaveReceivedNthCommandWith(UpdateCommand, 2, {
      ExpressionAttributeValues: expect.objectContaining({ ':read': 2, ':times': [T0 + 1] }),
    });
  });

  it('writes nothing when there is nothing at that time to release', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: [T0, T0 + 6_000], revision: 7 } });

    await newCounters().release(KEY, T0 + 5_000, 3);
    await newCounters().release(KEY, T0, 0);

    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });
});
