// The DynamoDB adapter against DynamoDB Local: the shared conformance suite (a fresh table per test), then
// what only it shows, such as the cost of a cycle in requests and capacity units and where the lease lives.
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { largeOrganizationState, PROMISED_ORGANIZATION } from '../../support/largeOrganizationState.js';
import { pollStateAsVersion1 } from '../../support/olderStateFiles.js';
import {
  describeStateStoreConformance,
  makeEvent,
  makeSnapshot,
  newOrderUuid,
  T0,
} from '../../support/stateStoreConformance.js';

/**
 * 300 transactional commits, ten at a time, on DynamoDB Local: up to 200 ms each with two CPU-bound
 * processes and other test runs beside the suite (60 s did not hold).
 */
const THREE_HUNDRED_COMMITS = 120_000;

describeStateStoreConformance('DynamoStateStore', async ({ clock }) => {
  const table = await createLocalStateTable();
  const documents = DynamoDBDocumentClient.from(table.client);
  /** Sets one attribute (a path of names) of an item, as another program would. */
  const set = async (key: { pk: string; sk: string }, path: string[], value: unknown) => {
    await documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: key,
        UpdateExpression: `SET ${path.map((_, index) => `#n${index}`).join('.')} = :value`,
        ExpressionAttributeNames: Object.fromEntries(path.map((name, index) => [`#n${index}`, name])),
        ExpressionAttributeValues: { ':value': value },
      }),
    );
  };
  return {
    store: new DynamoStateStore({ client: table.client, tableName: table.tableName, clock }),
    cleanup: table.drop,
    corrupt: {
      snapshotStatus: (organizationId, orderUuid) =>
        set({ pk: `ORG#${organizationId}`, sk: `SNAP#${orderUuid}` }, ['status'], 7),
      eventPayload: (organizationId, eventId) =>
        set({ pk: `ORG#${organizationId}`, sk: `EVENT#${eventId}` }, ['payload'], '{not json'),
      pollStateFailures: (organizationId) =>
        set({ pk: `ORG#${organizationId}`, sk: 'STATE' }, ['state', 'health', 'consecutiveFailures'], -1),
    },
  };
});

describe('DynamoStateStore on DynamoDB Local', () => {
  const tables: LocalTable[] = [];
  afterEach(async () => {
    await Promise.all(tables.splice(0).map((table) => table.drop()));
  });

  async function open(options: { eventRetentionMs?: number } = {}) {
    const table = await createLocalStateTable();
    tables.push(table);
    const store = new DynamoStateStore({
      client: table.client,
      tableName: table.tableName,
      clock: () => T0,
      ...options,
    });
    return { table, store, organizationId: randomUUID() };
  }

  it('reloads an unchanged organization with one query and no writes', {
    timeout: THREE_HUNDRED_COMMITS,
  }, async () => {
    const { store, organizationId } = await open();
    const snapshots = Array.from({ length: 300 }, () => makeSnapshot(newOrderUuid()));
    // Ten at a time: 300 at once queue behind the SDK's 50 sockets and hold DynamoDB Local's JVM, which
    // every test file shares, for tens of seconds on a busy machine.
    for (let start = 0; start < snapshots.length; start += 10) {
      await Promise.all(
        snapshots
          .slice(start, start + 10)
          .map((snapshot) => store.commitChange(organizationId, { snapshot, events: [] })),
      );
    }
    const before = store.metrics;
    expect(before.byOperation.commitChange.writeRequests).toBe(300);
    expect(before.byOperation.commitChange.writeCapacityUnits).toBeGreaterThan(0);

    const loaded = await store.loadSnapshots(organizationId);

    const after = store.metrics;
    expect(loaded.size).toBe(300);
    expect(after.total.writeRequests).toBe(before.total.writeRequests);
    expect(after.total.writeCapacityUnits).toBe(before.total.writeCapacityUnits);
    expect(after.byOperation.loadSnapshots.readRequests - before.byOperation.loadSnapshots.readRequests).toBe(
      1,
    );
    expect(after.byOperation.loadSnapshots.readCapacityUnits).toBeGreaterThan(0);
  });

  it("reads one event of an organization's log by id, and nothing for another organization or id", async () => {
    const { store, organizationId } = await open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
    await store.commitChange(organizationId, { snapshot, events: [event] });

    expect(await store.getEvent(organizationId, event.id)).toEqual({ event, organizationId, recordedAt: T0 });
    expect(await store.getEvent(randomUUID(), event.id)).toBeUndefined();
    expect(await store.getEvent(organizationId, 'no-such-event')).toBeUndefined();
  });

  it('stores events for the stream with their kind, type, time and TTL', async () => {
    const retention = 3 * 86_400_000;
    const { table, store, organizationId } = await open({ eventRetentionMs: retention });
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
    await store.commitChange(organizationId, { snapshot, events: [event] });

    const documents = DynamoDBDocumentClient.from(table.client);
    const { Item: eventItem } = await documents.send(
      new GetCommand({
        TableName: table.tableName,
        Key: { pk: `ORG#${organizationId}`, sk: `EVENT#${event.id}` },
      }),
    );
    expect(eventItem).toMatchObject({
      kind: 'event',
      eventType: 'order.created',
      recordedAt: T0,
      expiresAt: Math.ceil((T0 + retention) / 1000),
    });
    expect(JSON.parse(String(eventItem?.payload))).toEqual(event);

    const { Item: snapshotItem } = await documents.send(
      new GetCommand({
        TableName: table.tableName,
        Key: { pk: `ORG#${organizationId}`, sk: `SNAP#${snapshot.orderUuid}` },
      }),
    );
    // The TTL is the table's one time in epoch seconds; the snapshot's own expiresAt is in ms.
    expect(snapshotItem).toMatchObject({
      kind: 'snapshot',
      expiresAt: snapshot.expiresAt / 1000,
      version: 1,
    });
  });

  it('reads a poll state item an older version left with its lease on it as the state alone, and the next save removes that lease', async () => {
    const { table, store, organizationId } = await open();
    const documents = DynamoDBDocumentClient.from(table.client);
    const key = { pk: `ORG#${organizationId}`, sk: 'STATE' };
    const state: PollState = {
      ...initialPollState(organizationId),
      listings: { sizes: { pending: 40 }, walkedAt: { pending: T0 } },
      coverage: { pendingCoveredAt: { '2026-03-05': T0 }, watchingSince: T0 },
      sweep: { inProgress: null, sweptAt: { completed: T0 }, credit: 0.5 },
      pace: { averageCycleRequests: 4, nextPollAt: T0 + 30_000 },
      health: {
        lastSuccessAt: T0,
        lastAttemptAt: T0,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    };
    // The item as 0.1.0 left it (the flat state), with the lease attributes every version before the lease
    // item kept on it: an invocation of the old code that holds the organization during the deploy.
    await documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...key,
          kind: 'pollState',
          state: pollStateAsVersion1(state),
          leaseOwner: 'old-run',
          leaseUntil: T0 + 60_000,
        },
      }),
    );

    expect(await store.loadPollState(organizationId)).toEqual(state);
    // The old lease is not this version's: the lease item decides (docs/aws.md, "The lease and its cost").
    expect(await store.leaseHolder(organizationId)).toBeUndefined();
    expect(await store.acquireLease(organizationId, 'run-a', T0, 60_000)).toBe(true);
    await store.savePollState(state, { leaseOwner: 'run-a', releaseLease: true });

    const item = (await documents.send(new GetCommand({ TableName: table.tableName, Key: key }))).Item;
    expect(item?.state).toEqual(state);
    // Gone from the state item, so the old invocation's fenced writes, which check them, are refused now.
    expect(item).not.toHaveProperty('leaseOwner');
    expect(item).not.toHaveProperty('leaseUntil');
    expect(await store.leaseHolder(organizationId)).toBeUndefined();
  });

  it('keeps the lease on a small item of its own, never on the poll state item, with no TTL', async () => {
    const { table, store, organizationId } = await open();
    const documents = DynamoDBDocumentClient.from(table.client);
    const readItem = async (sk: string) =>
      (
        await documents.send(
          new GetCommand({ TableName: table.tableName, Key: { pk: `ORG#${organizationId}`, sk } }),
        )
      ).Item;
    const state = {
      ...initialPollState(organizationId),
      health: {
        lastSuccessAt: null,
        lastAttemptAt: T0,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    };
    await store.acquireLease(organizationId, 'run-a', T0, 60_000);
    await store.savePollState(state, { leaseOwner: 'run-a' });

    const lease = await readItem('FENCE');
    expect(lease).toMatchObject({ kind: 'lease', leaseOwner: 'run-a', leaseUntil: T0 + 60_000 });
    // A token that only grows needs the item kept: no TTL.
    expect(lease).not.toHaveProperty('expiresAt');
    const stateItem = await readItem('STATE');
    expect(stateItem).toMatchObject({ kind: 'pollState', state, fenceToken: lease?.fenceToken });
    expect(stateItem).not.toHaveProperty('leaseOwner');
    expect(stateItem).not.toHaveProperty('expiresAt');

    await store.savePollState(state, { leaseOwner: 'run-a', releaseLease: true });
    const released = await readItem('FENCE');
    expect(released).not.toHaveProperty('leaseOwner');
    expect(released).not.toHaveProperty('leaseUntil');
    expect(released?.fenceToken).toBe(lease?.fenceToken);
    // The next claim is a later term.
    await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000);
    expect((await readItem('FENCE'))?.fenceToken).toBeGreaterThan(Number(lease?.fenceToken));
  });

  it('checks the small lease item in a commit’s transaction, so its cost does not grow with the poll state', async () => {
    const table = await createLocalStateTable();
    tables.push(table);
    const documents = DynamoDBDocumentClient.from(table.client, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const transactions: string[][] = [];
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') {
          const input = args.input as { TransactItems?: { ConditionCheck?: { Key?: unknown } }[] };
          transactions.push(
            (input.TransactItems ?? []).flatMap((item) =>
              item.ConditionCheck ? [JSON.stringify(item.ConditionCheck.Key)] : [],
            ),
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'captureTransactions' },
    );
    const store = new DynamoStateStore({ client: documents, tableName: table.tableName, clock: () => T0 });
    const organizationId = randomUUID();
    // A poll state of about 260 KB: the largest the docs promise.
    const state = largeOrganizationState(PROMISED_ORGANIZATION);
    const stateId = state.organizationId;
    expect(await store.acquireLease(stateId, 'run-a', T0, 60_000)).toBe(true);
    await store.savePollState(state, { leaseOwner: 'run-a' });
    expect(await store.acquireLease(organizationId, 'run-a', T0, 60_000)).toBe(true);
    const commitUnits = async (organization: string) => {
      const before = store.metrics.byOperation.commitChange.writeCapacityUnits;
      const snapshot = makeSnapshot(newOrderUuid());
      const event = makeEvent(organization, snapshot.orderUuid, 'order.created');
      await store.commitChange(organization, { snapshot, events: [event] }, { leaseOwner: 'run-a' });
      return store.metrics.byOperation.commitChange.writeCapacityUnits - before;
    };
    const leaseUnits = async (claim: () => Promise<unknown>) => {
      const before = store.metrics.byOperation.lease.writeCapacityUnits;
      await claim();
      return store.metrics.byOperation.lease.writeCapacityUnits - before;
    };

    const besideLargeState = await commitUnits(stateId);
    const withoutState = await commitUnits(organizationId);

    // DynamoDB bills a transaction's condition check by the size of the item it checks.
    expect(besideLargeState).toBe(withoutState);
    expect(transactions).toHaveLength(2);
    for (const checked of transactions) expect(checked).toEqual([expect.stringContaining('"FENCE"')]);
    // A claim, a renewal and a release each write the small item alone: one unit, not 260.
    expect(await leaseUnits(() => store.acquireLease(stateId, 'run-a', T0 + 1, 60_000))).toBe(1);
    expect(await leaseUnits(() => store.releaseLease(stateId, 'run-a'))).toBe(1);
    expect(await leaseUnits(() => store.acquireLease(stateId, 'run-b', T0 + 2, 60_000))).toBe(1);
  });

  it('refuses a save paused between reading its lease and writing, once a later term saved, by its fencing token', async () => {
    const table = await createLocalStateTable();
    tables.push(table);
    const organizationId = randomUUID();
    const stateAt = (lastAttemptAt: number): PollState => ({
      ...initialPollState(organizationId),
      health: {
        lastSuccessAt: lastAttemptAt,
        lastAttemptAt,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    });
    const successor = new DynamoStateStore({
      client: table.client,
      tableName: table.tableName,
      clock: () => T0,
    });
    // Run A's requests go through a client that runs `beforeUpdate` before each UpdateItem is sent: the
    // pause (a frozen Lambda) between the lease read and the state's update, in which run B takes over.
    const documents = DynamoDBDocumentClient.from(table.client);
    let beforeUpdate: (() => Promise<void>) | undefined;
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        const hook = beforeUpdate;
        if (context.commandName === 'UpdateItemCommand' && hook) {
          beforeUpdate = undefined;
          await hook();
        }
        return next(args);
      },
      { step: 'initialize', name: 'pauseBeforeUpdate' },
    );
    const paused = new DynamoStateStore({ client: documents, tableName: table.tableName, clock: () => T0 });
    expect(await paused.acquireLease(organizationId, 'run-a', T0, 1_000)).toBe(true);

    beforeUpdate = async () => {
      expect(await successor.acquireLease(organizationId, 'run-b', T0 + 1_000, 60_000)).toBe(true);
      await successor.savePollState(stateAt(T0 + 1_000), { leaseOwner: 'run-b' });
    };
    await expect(
      paused.savePollState(stateAt(T0), { leaseOwner: 'run-a', releaseLease: true }),
    ).rejects.toMatchObject({ name: 'LeaseLostError', owner: 'run-a', holder: 'run-b' });

    expect(await successor.loadPollState(organizationId)).toEqual(stateAt(T0 + 1_000));
    expect(await successor.leaseHolder(organizationId)).toEqual({ owner: 'run-b', until: T0 + 61_000 });

    // Taken over but not yet saved over, the paused save lands; the successor's save, a later term,
    // still writes over it, and run A's can never again.
    expect(await paused.acquireLease(organizationId, 'run-a', T0 + 61_000, 1_000)).toBe(true);
    beforeUpdate = async () => {
      expect(await successor.acquireLease(organizationId, 'run-b', T0 + 62_000, 60_000)).toBe(true);
    };
    await paused.savePollState(stateAt(T0 + 61_000), { leaseOwner: 'run-a' });
    await successor.savePollState(stateAt(T0 + 62_000), { leaseOwner: 'run-b' });
    await expect(paused.savePollState(stateAt(T0 + 61_000), { leaseOwner: 'run-a' })).rejects.toMatchObject({
      name: 'LeaseLostError',
      holder: 'run-b',
    });
    expect(await successor.loadPollState(organizationId)).toEqual(stateAt(T0 + 62_000));
  });
});
