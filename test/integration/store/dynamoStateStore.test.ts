// The DynamoDB adapter against DynamoDB Local: the shared conformance suite (a fresh table per test), then
// what only it shows, such as the cost of a cycle in requests and capacity units and where the lease lives.
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
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

  it('reads a poll state item version 1 wrote as the records, keeping its lease, and the next save writes the records', async () => {
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
    // The item as 0.1.0 left it: the flat state beside the lease attributes.
    await documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...key,
          kind: 'pollState',
          state: pollStateAsVersion1(state),
          leaseOwner: 'run-a',
          leaseUntil: T0 + 60_000,
        },
      }),
    );

    expect(await store.loadPollState(organizationId)).toEqual(state);
    expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-a', until: T0 + 60_000 });
    await store.savePollState(state, { leaseOwner: 'run-a', releaseLease: true });
    const item = (await documents.send(new GetCommand({ TableName: table.tableName, Key: key }))).Item;
    expect(item?.state).toEqual(state);
    expect(item).not.toHaveProperty('leaseOwner');
  });

  it('keeps the lease on the poll state item, and gives it back with the state in one write', async () => {
    const { table, store, organizationId } = await open();
    const documents = DynamoDBDocumentClient.from(table.client);
    const readItem = async () =>
      (
        await documents.send(
          new GetCommand({ TableName: table.tableName, Key: { pk: `ORG#${organizationId}`, sk: 'STATE' } }),
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
    await store.savePollState(state);

    const held = await readItem();
    expect(held).toMatchObject({ kind: 'pollState', leaseOwner: 'run-a', leaseUntil: T0 + 60_000, state });
    // The state item has no TTL: the lease must not give it one.
    expect(held).not.toHaveProperty('expiresAt');

    const before = store.metrics;
    await store.savePollState(
      { ...state, health: { ...state.health, lastSuccessAt: T0 } },
      { leaseOwner: 'run-a', releaseLease: true },
    );
    const after = store.metrics;

    expect(after.total.writeRequests - before.total.writeRequests).toBe(1);
    expect(after.byOperation.lease.writeRequests).toBe(before.byOperation.lease.writeRequests);
    const released = await readItem();
    expect(released).toMatchObject({
      kind: 'pollState',
      state: { ...state, health: { ...state.health, lastSuccessAt: T0 } },
    });
    expect(released).not.toHaveProperty('leaseOwner');
    expect(released).not.toHaveProperty('leaseUntil');
  });
});
