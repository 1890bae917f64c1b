// The watchdog's read on DynamoDB Local: each organization's pace and health come from the copy its save
// writes on the small lease item, at the price of that item, not of a poll state of hundreds of kilobytes;
// an organization saved before the copy existed is read from its poll state once; never polled is undefined.
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { leaseKey } from '../../../shared/store/dynamo/stateTableKeys.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { WATCHED_ERROR_MAX_CHARS } from '../../../shared/store/pollWatch.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { largeOrganizationState, PROMISED_ORGANIZATION } from '../../support/largeOrganizationState.js';

describe("the watchdog's read of the state table", () => {
  const tables: LocalTable[] = [];
  afterEach(async () => {
    await Promise.all(tables.splice(0).map((table) => table.drop()));
  });

  it('reads a 260 KB organization for half a read unit, from the copy its lease gave back with', {
    timeout: 60_000,
  }, async () => {
    const table = await createLocalStateTable();
    tables.push(table);
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, warn: () => {} });
    const large = largeOrganizationState(PROMISED_ORGANIZATION);
    const state = {
      ...large,
      pace: { averageCycleRequests: 25, nextPollAt: 1_795_000_060_000 },
      health: {
        ...large.health,
        consecutiveFailures: 2,
        lastError: `the Admin API answered 503 ${'x'.repeat(900)}`,
      },
    };
    const owner = randomUUID();
    expect(await store.acquireLease(state.organizationId, owner, Date.now(), 60_000)).toBe(true);
    await store.savePollState(state, { leaseOwner: owner, releaseLease: true });
    const neverPolled = randomUUID();

    const before = store.metrics;
    const watches = await store.loadPollWatches([state.organizationId, neverPolled]);
    const after = store.metrics;

    expect(watches.get(state.organizationId)).toEqual({
      pace: state.pace,
      health: { ...state.health, lastError: expect.stringMatching(/^the Admin API answered 503 x+…$/) },
    });
    expect(watches.get(state.organizationId)?.health.lastError).toHaveLength(WATCHED_ERROR_MAX_CHARS);
    expect(watches.has(neverPolled)).toBe(true);
    expect(watches.get(neverPolled)).toBeUndefined();
    // One request for both, the lease item's half unit, not the poll state's 65 (eventually consistent).
    expect(after.byOperation.watch.readRequests - before.byOperation.watch.readRequests).toBe(1);
    expect(after.byOperation.watch.readCapacityUnits - before.byOperation.watch.readCapacityUnits).toBe(0.5);
    // The never-polled organization has no poll state either: one more read of nothing.
    expect(after.byOperation.loadPollState.readRequests - before.byOperation.loadPollState.readRequests).toBe(
      1,
    );
    // The copy rode on the give-back: the lease is free again.
    expect(await store.leaseHolder(state.organizationId)).toBeUndefined();
  });

  it('reads an organization whose lease item has no copy yet (an older version saved it) from its poll state', async () => {
    const table = await createLocalStateTable();
    tables.push(table);
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, warn: () => {} });
    const id = randomUUID();
    const state = {
      ...initialPollState(id),
      pace: { averageCycleRequests: 3, nextPollAt: 1_795_000_000_000 },
    };
    await store.savePollState(state);
    await table.client.send(
      new UpdateCommand({ TableName: table.tableName, Key: leaseKey(id), UpdateExpression: 'REMOVE watch' }),
    );

    const watches = await store.loadPollWatches([id]);

    expect(watches.get(id)).toEqual({ pace: state.pace, health: state.health });
    expect(store.metrics.byOperation.loadPollState.readRequests).toBe(1);
  });
});
