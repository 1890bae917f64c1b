// The DynamoDB adapter's writes judged by their outcome on DynamoDB Local: what a commit stores, which
// conditions refuse a write, that a repeated event is logged once, what a lease write leaves on the state
// item, and the failures a real table gives back. (The conformance suite in dynamoStateStore.test.ts pins
// what every state store shares; the error paths DynamoDB Local cannot produce are in test/unit/store.)
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDigestStore } from '../../../shared/store/dynamo/dynamoDigestStore.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { StateStoreError } from '../../../shared/store/errors.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { createLocalStateTable, type LocalTable, localDynamoClient } from '../../support/dynamoLocal.js';
import {
  makeDigest,
  makeEvent,
  makePrepSummary,
  makeSnapshot,
  newOrderUuid,
  T0,
} from '../../support/stateStoreConformance.js';

describe('DynamoStateStore writes on DynamoDB Local', () => {
  const tables: LocalTable[] = [];
  afterEach(async () => {
    await Promise.all(tables.splice(0).map((table) => table.drop()));
  });

  async function open() {
    const table = await createLocalStateTable();
    tables.push(table);
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, clock: () => T0 });
    const documents = DynamoDBDocumentClient.from(table.client);
    const organizationId = randomUUID();
    const readItem = async (sk: string) =>
      (
        await documents.send(
          new GetCommand({ TableName: table.tableName, Key: { pk: `ORG#${organizationId}`, sk } }),
        )
      ).Item;
    return { table, store, documents, organizationId, readItem };
  }

  it('stores a first version and its event in one write: the snapshot whole, the event as its payload', async () => {
    const { store, organizationId, readItem } = await open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');

    const result = await store.commitChange(organizationId, { snapshot, events: [event] });

    expect(result).toEqual({ outcome: 'committed', duplicateEventIds: [] });
    expect(store.metrics.byOperation.commitChange.writeRequests).toBe(1);
    expect(await readItem(`SNAP#${snapshot.orderUuid}`)).toEqual({
      pk: `ORG#${organizationId}`,
      sk: `SNAP#${snapshot.orderUuid}`,
      kind: 'snapshot',
      ...snapshot,
      expiresAt: snapshot.expiresAt / 1000,
    });
    const eventItem = await readItem(`EVENT#${event.id}`);
    expect(eventItem).toMatchObject({ kind: 'event', eventType: 'order.created', recordedAt: T0 });
    expect(JSON.parse(String(eventItem?.payload))).toEqual(event);
    expect((await store.loadSnapshots(organizationId)).get(snapshot.orderUuid)).toEqual(snapshot);
  });

  it('refuses a version that does not follow the stored one, leaving the stored snapshot and log as they were', async () => {
    const { store, organizationId } = await open();
    const first = makeSnapshot(newOrderUuid());
    await store.commitChange(organizationId, { snapshot: first, events: [] });
    const skipping = { ...first, status: 'completed' as const, version: 3 };
    const event = makeEvent(organizationId, first.orderUuid, 'order.completed');

    expect(await store.commitChange(organizationId, { snapshot: skipping, events: [event] })).toEqual({
      outcome: 'version_conflict',
    });
    expect(await store.commitChange(organizationId, { snapshot: { ...first }, events: [event] })).toEqual({
      outcome: 'version_conflict',
    });

    expect((await store.loadSnapshots(organizationId)).get(first.orderUuid)).toEqual(first);
    expect(await store.listEvents(organizationId)).toEqual([]);
    const next = { ...first, status: 'completed' as const, version: 2 };
    expect(await store.commitChange(organizationId, { snapshot: next, events: [event] })).toEqual({
      outcome: 'committed',
      duplicateEventIds: [],
    });
  });

  it('commits a change whose event is already logged, keeping the logged one and adding only the new', async () => {
    const { store, organizationId, readItem } = await open();
    const first = makeSnapshot(newOrderUuid(), { status: 'completed' });
    const completed = makeEvent(organizationId, first.orderUuid, 'order.completed');
    await store.commitChange(organizationId, { snapshot: first, events: [completed] });
    const loggedBefore = await readItem(`EVENT#${completed.id}`);
    const archived = makeEvent(organizationId, first.orderUuid, 'order.archived');
    const next = { ...first, status: 'archived' as const, version: 2 };

    expect(
      await store.commitChange(organizationId, { snapshot: next, events: [completed, archived] }),
    ).toEqual({
      outcome: 'committed',
      duplicateEventIds: [completed.id],
    });

    expect(await readItem(`EVENT#${completed.id}`)).toEqual(loggedBefore);
    // Both commits ran at T0, so the log's order between them is not the point; that each is there once is.
    const logged = (await store.listEvents(organizationId)).map(({ event }) => event.id);
    expect(logged.sort()).toEqual([completed.id, archived.id].sort());
    expect((await store.loadSnapshots(organizationId)).get(first.orderUuid)).toEqual(next);
  });

  it('records 150 prep summaries due at once in transactions of at most 100, each once; a second recording refuses them all as duplicates', async () => {
    const { store, organizationId } = await open();
    const day = (index: number) =>
      new Date(Date.UTC(2026, 2, 6) + index * 86_400_000).toISOString().slice(0, 10);
    const summaries = Array.from({ length: 150 }, (_, index) => makePrepSummary(organizationId, day(index)));

    expect(await store.recordEvents(organizationId, summaries)).toEqual({ duplicateEventIds: [] });

    expect(store.metrics.byOperation.recordEvents.writeRequests).toBe(2);
    // One write, in its order: the position runs on across the transactions.
    expect((await store.listEvents(organizationId)).map(({ event }) => event.id)).toEqual(
      summaries.map((summary) => summary.id),
    );
    expect(await store.recordEvents(organizationId, summaries)).toEqual({
      duplicateEventIds: summaries.map((summary) => summary.id),
    });
    expect(await store.listEvents(organizationId)).toHaveLength(150);
  });

  it('after a recording stopped between transactions, records the rest on the retry and reports the logged ones as duplicates', async () => {
    const { store, organizationId } = await open();
    const day = (index: number) =>
      new Date(Date.UTC(2026, 2, 6) + index * 86_400_000).toISOString().slice(0, 10);
    const summaries = Array.from({ length: 150 }, (_, index) => makePrepSummary(organizationId, day(index)));
    // What a failure after the first transaction leaves: its 100 events logged, the other 50 not.
    await store.recordEvents(organizationId, summaries.slice(0, 100));

    expect(await store.recordEvents(organizationId, summaries)).toEqual({
      duplicateEventIds: summaries.slice(0, 100).map((summary) => summary.id),
    });

    const logged = (await store.listEvents(organizationId)).map(({ event }) => event.id);
    expect(logged.sort()).toEqual(summaries.map((summary) => summary.id).sort());
  });

  it('records events past 4 MB in all, each near DynamoDB’s 400 KB item limit, in several transactions', async () => {
    const { store, organizationId } = await open();
    const events = Array.from({ length: 14 }, (_, index) => {
      const event = makeEvent(organizationId, newOrderUuid(), 'order.created');
      event.data.order.items = [{ name: `${index} ${'x'.repeat(300_000)}`, quantity: 1 }];
      return event;
    });

    expect(await store.recordEvents(organizationId, events)).toEqual({ duplicateEventIds: [] });

    expect(store.metrics.byOperation.recordEvents.writeRequests).toBeGreaterThan(1);
    expect((await store.listEvents(organizationId)).map(({ event }) => event.id)).toEqual(
      events.map((event) => event.id),
    );
  });

  it('commits a change of more than 99 events, the snapshot with the last of them', async () => {
    const { store, organizationId } = await open();
    const snapshot = makeSnapshot(newOrderUuid());
    const events = Array.from({ length: 120 }, (_, index) =>
      makeEvent(organizationId, snapshot.orderUuid, 'order.created', `state-${index}`),
    );

    expect(await store.commitChange(organizationId, { snapshot, events })).toEqual({
      outcome: 'committed',
      duplicateEventIds: [],
    });

    expect(store.metrics.byOperation.commitChange.writeRequests).toBe(2);
    expect(await store.listEvents(organizationId)).toHaveLength(120);
    expect((await store.loadSnapshots(organizationId)).get(snapshot.orderUuid)).toEqual(snapshot);
  });

  it('takes a lease over from an owner named gone in one write, leaving the poll state alone', async () => {
    const { store, organizationId, readItem } = await open();
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
    const before = store.metrics.byOperation.lease.writeRequests;

    expect(await store.acquireLease(organizationId, 'run-b', T0, 30_000, { takeOverFrom: 'run-a' })).toBe(
      true,
    );

    expect(store.metrics.byOperation.lease.writeRequests - before).toBe(1);
    expect(await readItem('FENCE')).toMatchObject({
      kind: 'lease',
      leaseOwner: 'run-b',
      leaseUntil: T0 + 30_000,
    });
    const stateItem = await readItem('STATE');
    expect(stateItem).toMatchObject({ kind: 'pollState', state });
    expect(stateItem).not.toHaveProperty('leaseOwner');
    expect(await store.acquireLease(organizationId, 'run-c', T0, 30_000, { takeOverFrom: 'run-a' })).toBe(
      false,
    );
  });

  it('refuses a fenced save under a lease taken over by another owner before any write, touching neither', async () => {
    const { store, organizationId, readItem } = await open();
    const theirs = initialPollState(organizationId);
    await store.savePollState(theirs);
    await store.acquireLease(organizationId, 'run-b', T0, 60_000);
    const state = {
      ...initialPollState(organizationId),
      health: {
        lastSuccessAt: T0,
        lastAttemptAt: null,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    };
    const before = store.metrics;

    await expect(
      store.savePollState(state, { leaseOwner: 'run-a', releaseLease: true }),
    ).rejects.toMatchObject({ name: 'LeaseLostError', owner: 'run-a', holder: 'run-b' });

    expect(store.metrics.total.writeRequests - before.total.writeRequests).toBe(0);
    expect(await readItem('STATE')).toMatchObject({ state: theirs });
    expect(await readItem('FENCE')).toMatchObject({ leaseOwner: 'run-b', leaseUntil: T0 + 60_000 });
  });

  it('does not release a lease for anyone but its owner', async () => {
    const { store, organizationId } = await open();
    await store.acquireLease(organizationId, 'run-a', T0, 60_000);

    await expect(store.releaseLease(organizationId, 'run-b')).resolves.toBeUndefined();
    expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-a', until: T0 + 60_000 });

    await store.releaseLease(organizationId, 'run-a');
    expect(await store.leaseHolder(organizationId)).toBeUndefined();
  });

  it('rejects a stored snapshot that does not parse, saying it is malformed', async () => {
    const { table, store, documents, organizationId } = await open();
    await documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { pk: `ORG#${organizationId}`, sk: `SNAP#${newOrderUuid()}`, kind: 'snapshot', status: 7 },
      }),
    );

    const error = await store.loadSnapshots(organizationId).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(StateStoreError);
    expect((error as Error).message).toContain('malformed snapshot');
  });

  it('reports a table that does not exist as a StateStoreError that is not retryable, naming the organization', async () => {
    const client = localDynamoClient();
    const organizationId = randomUUID();
    const store = new DynamoStateStore({ client, tableName: `missing-${randomUUID()}`, clock: () => T0 });

    const error = await store.loadPollState(organizationId).catch((caught: unknown) => caught);
    client.destroy();

    expect(error).toBeInstanceOf(StateStoreError);
    expect(error).toMatchObject({
      retryable: false,
      operation: 'loadPollState',
      organization: organizationId,
    });
    expect((error as Error).message).toContain(organizationId);
  });
  it('writes what it validated: a snapshot, events and poll state as their schemas parse them, not as handed in', async () => {
    const { table, store, organizationId, readItem } = await open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
    const summary = makePrepSummary(organizationId);
    // What a caller's object may carry beside its schema's fields: never to reach the table.
    const extra = { debugNote: 'not part of the record' };
    await store.commitChange(organizationId, {
      snapshot: { ...snapshot, ...extra },
      events: [{ ...event, ...extra }],
    });
    await store.recordEvents(organizationId, [{ ...summary, ...extra }]);
    await store.savePollState({ ...initialPollState(organizationId), ...extra });

    const committed = await readItem(`EVENT#${event.id}`);
    expect(JSON.parse(String(committed?.payload))).toEqual(event);
    expect(JSON.parse(String((await readItem(`EVENT#${summary.id}`))?.payload))).not.toHaveProperty(
      'debugNote',
    );
    expect(await readItem(`SNAP#${snapshot.orderUuid}`)).not.toHaveProperty('debugNote');
    expect((await readItem('STATE'))?.state).not.toHaveProperty('debugNote');

    const digests = new DynamoDigestStore({
      client: table.client,
      tableName: table.tableName,
      clock: () => T0,
    });
    const digest = makeDigest(organizationId);
    expect(await digests.recordDigest(organizationId, { ...digest, ...extra })).toBe(true);
    expect(JSON.parse(String((await readItem(`DIGEST#${digest.id}`))?.payload))).toEqual(digest);
  });
});
