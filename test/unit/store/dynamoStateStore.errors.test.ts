// The DynamoDB adapter's error paths that DynamoDB Local cannot produce (throttling, canceled transactions,
// a second page of snapshots), on a mocked client: which typed error the caller gets and whether it is
// retryable, and what the store does or does not send next. Outcomes on a real table are pinned in
// test/integration/store/dynamoStateStoreOutcomes.test.ts.
import {
  DynamoDBClient,
  ProvisionedThroughputExceededException,
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
import { StoreContentionError, StoreThrottledError } from '../../../shared/store/errors.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const ddb = mockClient(DynamoDBDocumentClient);
const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';

afterEach(() => {
  ddb.reset();
});

function newStore(warn?: (line: string) => void): DynamoStateStore {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return new DynamoStateStore({
    client,
    tableName: 'state-table',
    clock: () => T0,
    ...(warn ? { warn } : {}),
  });
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

function firstChange() {
  const snapshot = makeSnapshot(newOrderUuid());
  return { snapshot, events: [makeEvent(ORG, snapshot.orderUuid, 'order.created')] };
}

describe('DynamoStateStore when DynamoDB refuses', () => {
  it('loads the snapshots of every page, continuing where the last page ended', async () => {
    const [a, b] = [makeSnapshot(newOrderUuid()), makeSnapshot(newOrderUuid())];
    /** As the table holds it: the TTL in epoch seconds. */
    const item = (snapshot: typeof a) => ({ ...snapshot, expiresAt: snapshot.expiresAt / 1000 });
    const pageEnd = { pk: `ORG#${ORG}`, sk: `SNAP#${a.orderUuid}` };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item(a)], LastEvaluatedKey: pageEnd })
      .resolvesOnce({ Items: [item(b)] });
    const store = newStore();

    const loaded = await store.loadSnapshots(ORG);

    expect([...loaded.values()]).toEqual([a, b]);
    expect(ddb).toHaveReceivedNthCommandWith(QueryCommand, 2, { ExclusiveStartKey: pageEnd });
    expect(store.metrics.byOperation.loadSnapshots.readRequests).toBe(2);
  });

  it('turns a transaction canceled by throttling into a retryable StoreThrottledError, without retrying', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['None', 'ThrottlingError']));

    const error = await rejectionOf(newStore().commitChange(ORG, firstChange()));

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ organization: ORG, operation: 'commitChange', retryable: true });
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('takes a commit canceled by its snapshot’s version check as a version conflict, whatever else failed', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['ConditionalCheckFailed', 'ThrottlingError']));

    expect(await newStore().commitChange(ORG, firstChange())).toEqual({ outcome: 'version_conflict' });
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('commits again without an event the log already holds, reporting it as a duplicate', async () => {
    const change = firstChange();
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(canceled(['None', 'ConditionalCheckFailed']))
      .resolves({});

    expect(await newStore().commitChange(ORG, change)).toEqual({
      outcome: 'committed',
      duplicateEventIds: [change.events[0]?.id],
    });
    const second = ddb.commandCalls(TransactWriteCommand)[1]?.args[0].input.TransactItems ?? [];
    expect(second.map((item) => item.Put?.Item?.kind)).toEqual(['snapshot']);
  });

  it('does not take an event as logged when another item of the commit was throttled', async () => {
    const snapshot = makeSnapshot(newOrderUuid());
    const events = [
      makeEvent(ORG, snapshot.orderUuid, 'order.created'),
      makeEvent(ORG, snapshot.orderUuid, 'order.canceled'),
    ];
    ddb.on(TransactWriteCommand).rejects(canceled(['None', 'ConditionalCheckFailed', 'ThrottlingError']));

    const error = await rejectionOf(newStore().commitChange(ORG, { snapshot, events }));

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });

  it('turns a transaction conflict into a retryable StoreContentionError', async () => {
    ddb.on(TransactWriteCommand).rejects(canceled(['TransactionConflict', 'None']));

    const error = await rejectionOf(newStore().commitChange(ORG, firstChange()));

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

  it('does not mistake a throttled lease request for a lease held by someone else', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }));

    await expect(newStore().acquireLease(ORG, 'run-a', T0, 30_000)).rejects.toBeInstanceOf(
      StoreThrottledError,
    );
  });

  it('reports a throttled combined save as a StoreThrottledError, without a second write', async () => {
    ddb.on(GetCommand).resolves({ Item: { leaseOwner: 'run-a', fenceToken: 7 } });
    ddb.on(UpdateCommand).rejects(new ThrottlingException({ message: 'Slow down', $metadata: {} }));

    const error = await rejectionOf(
      newStore().savePollState(initialPollState(ORG), { leaseOwner: 'run-a', releaseLease: true }),
    );

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ operation: 'savePollState', organization: ORG });
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
  });

  it('keeps a saved state when giving the lease back fails after it, and says so in one line', async () => {
    ddb.on(GetCommand).resolves({ Item: { leaseOwner: 'run-a', fenceToken: 7 } });
    ddb
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejects(new ThrottlingException({ message: 'Slow down', $metadata: {} }));
    const lines: string[] = [];

    await newStore((line) => lines.push(line)).savePollState(initialPollState(ORG), {
      leaseOwner: 'run-a',
      releaseLease: true,
    });

    // The state's update, then the lease's; a throw here would have the cycle save the state as loaded.
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`organization ${ORG} saved, but its lease was not given back`);
    expect(lines[0]).not.toContain('\n');
  });
});
