// The in-memory StateStore the phase tests run on: the shared conformance suite the SQLite and DynamoDB
// adapters pass, then what only the fake adds (copies, not references; the delivery queue; failNext).
import { describe, expect, it } from 'vitest';
import { StoreContentionError } from '../../../shared/store/errors.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import { takeOne } from '../../support/budgetTake.js';
import { InMemoryStateStore } from '../../support/inMemoryStateStore.js';
import {
  describeStateStoreConformance,
  makeEvent,
  makePrepSummary,
  makeSnapshot,
  newOrderUuid,
  T0,
} from '../../support/stateStoreConformance.js';

describeStateStoreConformance('InMemoryStateStore', async ({ clock }) => {
  const store = new InMemoryStateStore({ clock });
  return { store, cleanup: async () => {}, corrupt: store.corrupt };
});

describe('InMemoryStateStore beyond the port', () => {
  const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';

  it('hands out copies: changing what was written or read changes nothing stored', async () => {
    const store = new InMemoryStateStore({ clock: () => T0 });
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    const state: PollState = { ...initialPollState(ORG), listings: { sizes: { pending: 3 }, walkedAt: {} } };
    await store.commitChange(ORG, { snapshot, events: [event] });
    await store.savePollState(state);
    await store.acquireLease(ORG, 'run-a', T0, 60_000);

    snapshot.status = 'canceled';
    event.data.order.reference = 'changed';
    state.listings.sizes.completed = 7;
    const loaded = await store.loadSnapshots(ORG);
    const loadedSnapshot = loaded.get(snapshot.orderUuid);
    if (!loadedSnapshot) throw new Error('no snapshot');
    loadedSnapshot.version = 99;
    const [listed] = await store.listEvents(ORG);
    if (!listed) throw new Error('no event');
    listed.event.subject = 'changed';
    const loadedState = await store.loadPollState(ORG);
    if (loadedState) loadedState.listings.sizes.archived = 9;
    const lease = await store.leaseHolder(ORG);
    if (lease) lease.until = 0;

    expect((await store.loadSnapshots(ORG)).get(snapshot.orderUuid)).toMatchObject({
      status: 'pending',
      version: 1,
    });
    expect((await store.listEvents(ORG))[0]?.event).toMatchObject({
      subject: snapshot.orderUuid,
      data: { order: { reference: 'ORD-1' } },
    });
    expect((await store.loadPollState(ORG))?.listings.sizes).toEqual({ pending: 3 });
    expect(await store.leaseHolder(ORG)).toEqual({ owner: 'run-a', until: T0 + 60_000 });
  });

  it('queues each newly logged event for delivery once, in the order logged, duplicates never', async () => {
    let now = T0;
    const store = new InMemoryStateStore({ clock: () => now });
    const snapshot = makeSnapshot(newOrderUuid());
    const created = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    const canceled = makeEvent(ORG, snapshot.orderUuid, 'order.canceled');
    const summary = makePrepSummary(ORG);
    await store.commitChange(ORG, { snapshot, events: [created] });
    now += 1_000;
    await store.commitChange(ORG, { snapshot: { ...snapshot, version: 2 }, events: [created, canceled] });
    await store.recordEvents(ORG, [summary, summary]);
    // A refused commit queues nothing.
    const stale = {
      snapshot: { ...snapshot, version: 2 },
      events: [makeEvent(ORG, snapshot.orderUuid, 'order.completed')],
    };
    expect(await store.commitChange(ORG, stale)).toEqual({ outcome: 'version_conflict' });

    expect(store.deliveryQueue()).toEqual([
      { event: created, organizationId: ORG, recordedAt: T0 },
      { event: canceled, organizationId: ORG, recordedAt: T0 + 1_000 },
      { event: summary, organizationId: ORG, recordedAt: T0 + 1_000 },
    ]);
    expect(store.drainDeliveryQueue().map((stored) => stored.event.id)).toEqual([
      created.id,
      canceled.id,
      summary.id,
    ]);
    expect(store.deliveryQueue()).toEqual([]);
    await store.recordEvents(ORG, [summary]);
    expect(store.deliveryQueue()).toEqual([]);
  });

  it('fails the next call of an operation once per failNext, having written nothing', async () => {
    const store = new InMemoryStateStore({ clock: () => T0 });
    const busy = new StoreContentionError('commitChange', ORG, 'database is locked');
    store.failNext('commitChange', busy);
    const snapshot = makeSnapshot(newOrderUuid());

    await expect(store.commitChange(ORG, { snapshot, events: [] })).rejects.toBe(busy);
    expect(await store.loadSnapshots(ORG)).toEqual(new Map());
    expect(await store.commitChange(ORG, { snapshot, events: [] })).toEqual({
      outcome: 'committed',
      duplicateEventIds: [],
    });
  });

  it('prunes snapshots past their expiry and events past the retention, as the SQLite store does', async () => {
    const store = new InMemoryStateStore({ clock: () => T0, eventRetentionMs: 1_000 });
    const expiring = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 500 });
    const kept = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 5_000 });
    await store.commitChange(ORG, {
      snapshot: expiring,
      events: [makeEvent(ORG, expiring.orderUuid, 'order.created')],
    });
    await store.commitChange(ORG, { snapshot: kept, events: [] });

    expect(await store.prune(T0 + 1_000)).toEqual({ snapshots: 1, events: 1 });
    expect([...(await store.loadSnapshots(ORG)).keys()]).toEqual([kept.orderUuid]);
    expect(await store.listEvents(ORG)).toEqual([]);
  });

  it('shares budget counters handed to several stores, as runs on one table do', async () => {
    const first = new InMemoryStateStore();
    const second = new InMemoryStateStore({ budgetCounters: first.budgetCounters });
    await takeOne(first.budgetCounters, 'token#a', T0, 1, 60_000);
    expect(await takeOne(second.budgetCounters, 'token#a', T0 + 1, 1, 60_000)).toEqual({
      granted: false,
      retryAtMs: T0 + 60_000,
    });
  });
});
