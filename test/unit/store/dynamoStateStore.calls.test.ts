// The DynamoDB adapter's requests and error paths, on a mocked client: the shape of each call, and how
// throttling, failed conditions and canceled transactions come back to the caller.
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { StateStoreError, StoreContentionError, StoreThrottledError } from '../../../shared/store/errors.js';
import { initialPollState } from '../../../shared/store/stateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'state-table';
const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';

afterEach(() => {
  ddb.reset();
});

function newStore(): DynamoStateStore {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return new DynamoStateStore({ client, tableName: TABLE, clock: () => T0 });
}

function canceled(codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('DynamoStateStore requests', () => {
  it('loads snapshots with one Query on the SNAP# range, following every page, and no item reads', async () => {
    const [a, b] = [makeSnapshot(newOrderUuid()), makeSnapshot(newOrderUuid())];
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [a], LastEvaluatedKey: { pk: `ORG#${ORG}`, sk: `SNAP#${a.orderUuid}` } })
      .resolvesOnce({ Items: [b] });
    const store = newStore();

    const loaded = await store.loadSnapshots(ORG);

    expect([...loaded.values()]).toEqual([a, b]);
    expect(ddb).toHaveReceivedCommandTimes(QueryCommand, 2);
    expect(ddb).toHaveReceivedNthCommandWith(QueryCommand, 1, {
      TableName: TABLE,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `ORG#${ORG}`, ':prefix': 'SNAP#' },
      ExclusiveStartKey: undefined,
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(ddb).toHaveReceivedNthCommandWith(QueryCommand, 2, {
      ExclusiveStartKey: { pk: `ORG#${ORG}`, sk: `SNAP#${a.orderUuid}` },
    });
    expect(ddb).not.toHaveReceivedCommand(GetCommand);
    const projection = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    const projected = (projection?.ProjectionExpression ?? '')
      .split(', ')
      .map((alias) => projection?.ExpressionAttributeNames?.[alias]);
    expect(projected.sort()).toEqual(Object.keys(a).sort());
    expect(store.metrics.byOperation.loadSnapshots.readRequests).toBe(2);
  });

  it('commits a first version in one transaction: the snapshot only if absent, each event only if new', async () => {
    ddb.on(TransactWriteCommand).resolves({
      ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: 4 }],
    });
    const store = newStore();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');

    expect(await store.commitChange(ORG, { snapshot, events: [event] })).toEqual({
      outcome: 'committed',
      duplicateEventIds: [],
    });

    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
    const input = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input;
    expect(input?.ReturnConsumedCapacity).toBe('TOTAL');
    expect(input?.TransactItems).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { pk: `ORG#${ORG}`, sk: `SNAP#${snapshot.orderUuid}`, kind: 'snapshot', ...snapshot },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: expect.objectContaining({
            pk: `ORG#${ORG}`,
            sk: `EVENT#${event.id}`,
            kind: 'event',
            eventType: 'order.created',
            recordedAt: T0,
            payload: JSON.stringify(event),
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    expect(store.metrics.byOperation.commitChange).toEqual({
      readRequests: 0,
      writeRequests: 1,
      readCapacityUnits: 0,
      writeCapacityUnits: 4,
    });
  });

  it('conditions a later version on the version it replaces', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const snapshot = makeSnapshot(newOrderUuid(), { status: 'completed', version: 5 });

    await newStore().commitChange(ORG, { snapshot, events: [] });

    const put = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put;
    expect(put).toMatchObject({
      ConditionExpression: '#version = :previous',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':previous': 4 },
    });
  });

  it('reports a version conflict when the snapshot condition fails, without retrying', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['ConditionalCheckFailed', 'ConditionalCheckFailed']));
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');

    expect(await newStore().commitChange(ORG, { snapshot, events: [event] })).toEqual({
      outcome: 'version_conflict',
    });
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('retries without the events already logged and names them as duplicates', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(canceled(['None', 'ConditionalCheckFailed', 'None']))
      .resolvesOnce({});
    const snapshot = makeSnapshot(newOrderUuid(), { status: 'archived', version: 2 });
    const completed = makeEvent(ORG, snapshot.orderUuid, 'order.completed');
    const archived = makeEvent(ORG, snapshot.orderUuid, 'order.archived');

    expect(await newStore().commitChange(ORG, { snapshot, events: [completed, archived] })).toEqual({
      outcome: 'committed',
      duplicateEventIds: [completed.id],
    });

    const retry = ddb.commandCalls(TransactWriteCommand)[1]?.args[0].input.TransactItems ?? [];
    expect(retry.map((item) => item.Put?.Item?.sk)).toEqual([
      `SNAP#${snapshot.orderUuid}`,
      `EVENT#${archived.id}`,
    ]);
  });

  it('turns a transaction canceled by throttling into a retryable StoreThrottledError', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['None', 'ThrottlingError']));
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');

    const error = await rejectionOf(newStore().commitChange(ORG, { snapshot, events: [event] }));

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ organization: ORG, operation: 'commitChange', retryable: true });
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('turns a transaction conflict into a retryable StoreContentionError', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['TransactionConflict', 'None']));
    const snapshot = makeSnapshot(newOrderUuid());

    const error = await rejectionOf(
      newStore().commitChange(ORG, {
        snapshot,
        events: [makeEvent(ORG, snapshot.orderUuid, 'order.created')],
      }),
    );

    expect(error).toBeInstanceOf(StoreContentionError);
    expect(error).toMatchObject({ retryable: true, operation: 'commitChange' });
  });

  it('turns ProvisionedThroughputExceeded on a load into a StoreThrottledError naming the organization', async () => {
    const cause = new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} });
    ddb.on(QueryCommand).rejects(cause);
    const store = newStore();

    const error = await rejectionOf(store.loadSnapshots(ORG));

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ organization: ORG, operation: 'loadSnapshots', retryable: true, cause });
    expect(error.message).toContain(ORG);
    expect(error.message).toContain('ProvisionedThroughputExceededException');
    expect(store.metrics.byOperation.loadSnapshots.readRequests).toBe(1);
  });

  it('turns a ThrottlingException on saving poll state into a StoreThrottledError', async () => {
    ddb.on(UpdateCommand).rejects(new ThrottlingException({ message: 'Slow down', $metadata: {} }));

    const error = await rejectionOf(newStore().savePollState(initialPollState(ORG)));

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ operation: 'savePollState', organization: ORG });
  });

  it('reports other failures as a StateStoreError that is not retryable', async () => {
    ddb.on(GetCommand).rejects(new ResourceNotFoundException({ message: 'no such table', $metadata: {} }));

    const error = await rejectionOf(newStore().loadPollState(ORG));

    expect(error).toBeInstanceOf(StateStoreError);
    expect(error).not.toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ retryable: false, operation: 'loadPollState', organization: ORG });
  });

  it('rejects a stored snapshot that does not parse', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ orderUuid: 'x', status: 7 }] });

    const error = await rejectionOf(newStore().loadSnapshots(ORG));

    expect(error).toBeInstanceOf(StateStoreError);
    expect(error.message).toContain('malformed snapshot');
  });
});

describe('DynamoStateStore lease and poll state requests', () => {
  const STATE_KEY = { pk: `ORG#${ORG}`, sk: 'STATE' };
  const conditionFailed = (message: string) =>
    new ConditionalCheckFailedException({ message, $metadata: {} });

  it('takes the lease with a conditional update of the poll state item’s lease attributes alone', async () => {
    ddb.on(UpdateCommand).resolves({});

    expect(await newStore().acquireLease(ORG, 'run-a', T0, 30_000)).toBe(true);

    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: TABLE,
      Key: STATE_KEY,
      UpdateExpression: 'SET #kind = :kind, #owner = :owner, #until = :until',
      ConditionExpression: 'attribute_not_exists(#until) OR #until <= :now OR #owner = :owner',
      ExpressionAttributeNames: { '#kind': 'kind', '#owner': 'leaseOwner', '#until': 'leaseUntil' },
      ExpressionAttributeValues: {
        ':kind': 'pollState',
        ':owner': 'run-a',
        ':until': T0 + 30_000,
        ':now': T0,
      },
    });
  });

  it('takes over from a gone owner by naming it in the same conditional update', async () => {
    ddb.on(UpdateCommand).resolves({});

    expect(await newStore().acquireLease(ORG, 'run-b', T0, 30_000, { takeOverFrom: 'run-a' })).toBe(true);

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression:
        'attribute_not_exists(#until) OR #until <= :now OR #owner = :owner OR #owner = :gone',
      ExpressionAttributeValues: {
        ':kind': 'pollState',
        ':owner': 'run-b',
        ':until': T0 + 30_000,
        ':now': T0,
        ':gone': 'run-a',
      },
    });
  });

  it('reads the lease holder with one consistent read of the lease attributes alone', async () => {
    ddb.on(GetCommand).resolves({ Item: { leaseOwner: 'run-a', leaseUntil: T0 + 30_000 } });

    expect(await newStore().leaseHolder(ORG)).toEqual({ owner: 'run-a', until: T0 + 30_000 });

    expect(ddb).toHaveReceivedCommandWith(GetCommand, {
      Key: STATE_KEY,
      ConsistentRead: true,
      ProjectionExpression: '#owner, #until',
      ExpressionAttributeNames: { '#owner': 'leaseOwner', '#until': 'leaseUntil' },
    });
  });

  it('answers false when the lease condition fails', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed('held'));

    expect(await newStore().acquireLease(ORG, 'run-b', T0, 30_000)).toBe(false);
  });

  it('releases by removing the lease attributes on the owner’s condition, and ignores a lease no longer ours', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed('not yours'));

    await expect(newStore().releaseLease(ORG, 'run-a')).resolves.toBeUndefined();

    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      Key: STATE_KEY,
      UpdateExpression: 'REMOVE #owner, #until',
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeValues: { ':owner': 'run-a' },
    });
  });

  it('does not mistake a throttled lease request for a lease held by someone else', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }));

    await expect(newStore().acquireLease(ORG, 'run-a', T0, 30_000)).rejects.toBeInstanceOf(
      StoreThrottledError,
    );
  });

  it('saves the poll state with an update that leaves the lease attributes alone', async () => {
    ddb.on(UpdateCommand).resolves({});
    const state = initialPollState(ORG);

    await newStore().savePollState(state);

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      Key: STATE_KEY,
      UpdateExpression: 'SET #kind = :kind, #state = :state',
      ExpressionAttributeNames: { '#kind': 'kind', '#state': 'state' },
      ExpressionAttributeValues: { ':kind': 'pollState', ':state': state },
    });
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).not.toHaveProperty('ConditionExpression');
  });

  it('saves the poll state and gives the lease back in one conditional write', async () => {
    ddb.on(UpdateCommand).resolves({});
    const state = initialPollState(ORG);
    const store = newStore();

    await store.savePollState(state, { releaseLeaseOf: 'run-a' });

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      Key: STATE_KEY,
      UpdateExpression: 'SET #kind = :kind, #state = :state REMOVE #owner, #until',
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: {
        '#kind': 'kind',
        '#state': 'state',
        '#owner': 'leaseOwner',
        '#until': 'leaseUntil',
      },
      ExpressionAttributeValues: { ':kind': 'pollState', ':state': state, ':owner': 'run-a' },
    });
    expect(store.metrics.byOperation.savePollState.writeRequests).toBe(1);
    expect(store.metrics.byOperation.lease.writeRequests).toBe(0);
  });

  it('saves the poll state alone in a second write when the lease is no longer the owner’s', async () => {
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed('taken over')).resolves({});
    const state = initialPollState(ORG);

    await newStore().savePollState(state, { releaseLeaseOf: 'run-a' });

    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 2);
    expect(ddb).toHaveReceivedNthCommandWith(UpdateCommand, 2, {
      Key: STATE_KEY,
      UpdateExpression: 'SET #kind = :kind, #state = :state',
      ExpressionAttributeNames: { '#kind': 'kind', '#state': 'state' },
      ExpressionAttributeValues: { ':kind': 'pollState', ':state': state },
    });
    expect(ddb.commandCalls(UpdateCommand)[1]?.args[0].input).not.toHaveProperty('ConditionExpression');
  });

  it('reports a throttled combined save as a StoreThrottledError, without a second write', async () => {
    ddb.on(UpdateCommand).rejects(new ThrottlingException({ message: 'Slow down', $metadata: {} }));

    const error = await rejectionOf(
      newStore().savePollState(initialPollState(ORG), { releaseLeaseOf: 'run-a' }),
    );

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ operation: 'savePollState', organization: ORG });
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
  });

  it('loads no poll state from an item that holds only a lease', async () => {
    ddb.on(GetCommand).resolves({ Item: {} });

    expect(await newStore().loadPollState(ORG)).toBeUndefined();
  });
});
