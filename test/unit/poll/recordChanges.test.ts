// Pins the record phase: each order seen diffed against its snapshot and committed one at a time with the
// events `statuses` announces; news told by the coverage before the cycle, a baseline kept silent, each new
// event dated at its source; a version conflict counted and left; missing orders marked without an event;
// the after-closing events handed on to amend the summaries, announced or not.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import type { Coverage } from '../../../shared/detect/coverage.js';
import { prepSummaryKey } from '../../../shared/detect/planPrepSummaries.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import { type ChangesInput, recordChanges } from '../../../shared/poll/recordChanges.js';
import {
  type CycleFixture,
  cycleFixture,
  establishmentsCache,
  MINUTE,
  mainCanteen,
  snapshotsOf,
  storeSnapshots,
  T0,
  TODAY,
} from '../../support/cycleFixture.js';
import { laterOrder, ORGANIZATION, parsedOrder, snapshotOf } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeEstablishment } from '../../support/orderFactory.js';

/** Pending has been watched for ten minutes, and today was walked whole a minute ago. */
const WATCHED: Coverage = { pendingCoveredAt: { [TODAY]: T0 - MINUTE }, watchingSince: T0 - 10 * MINUTE };
const NOT_WATCHED: Coverage = { pendingCoveredAt: {}, watchingSince: null };
const CREATED_AT = '2026-03-10T05:59:30.000000Z';
const COMPLETED_AT = '2026-03-10T05:59:45.000000Z';

const newOrder = () => parsedOrder({ pickup_at: TODAY, created_at: CREATED_AT, updated_at: CREATED_AT });
const completedLater = (order: Order) =>
  laterOrder(order, {
    status: { label: 'Completed', value: 'completed' },
    completed_at: COMPLETED_AT,
    updated_at: COMPLETED_AT,
    can_be_cancelled: false,
  });
const observed = (...orders: Order[]) => new Map(orders.map((order) => [order.uuid, order]));

async function record(
  input: Partial<ChangesInput>,
  organization: Partial<PolledOrganization> = {},
  fixture?: CycleFixture,
) {
  const cycle = fixture ?? (await cycleFixture({ organization }));
  const changes = await recordChanges(cycle.context, {
    snapshots: new Map(),
    observed: new Map(),
    missing: [],
    coverage: WATCHED,
    prepSummaries: {},
    establishments: null,
    ...input,
  });
  return { ...cycle, changes };
}

/** A cycle whose store holds `snapshots`, as the cycle loaded them. */
async function cycleWith(...snapshots: Snapshot[]): Promise<CycleFixture> {
  const fixture = await cycleFixture();
  await storeSnapshots(fixture.store, ...snapshots);
  return fixture;
}

const types = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe('recordChanges', () => {
  it('announces a new order on a date pending covered, commits it, queues it and dates it at its creation', async () => {
    const order = newOrder();
    const { changes, store } = await record({ observed: observed(order) });
    expect(types(changes.events)).toEqual(['order.created']);
    const [event] = changes.events;
    expect(event).toMatchObject({ subject: order.uuid, time: new Date(T0).toISOString() });
    expect(changes.sourceTimes).toEqual({ [event?.id ?? '']: Date.parse(CREATED_AT) });
    expect(changes.conflicts).toBe(0);
    expect(store.deliveryQueue().map((stored) => stored.event.id)).toEqual([event?.id]);
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)).toMatchObject({
      status: 'pending',
      version: 1,
      missingSince: null,
    });
  });

  it('keeps a baseline silent: the snapshot is committed, no event', async () => {
    const order = newOrder();
    const { changes, store } = await record({ observed: observed(order), coverage: NOT_WATCHED });
    expect(changes).toEqual({ events: [], sourceTimes: {}, conflicts: 0, afterClosing: [] });
    expect(store.deliveryQueue()).toEqual([]);
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)?.version).toBe(1);
  });

  it('announces what existed before it could be seen when emitExisting asks, without a detection time', async () => {
    const { changes } = await record(
      { observed: observed(newOrder()), coverage: NOT_WATCHED },
      { emitExisting: true },
    );
    expect(types(changes.events)).toEqual(['order.created']);
    expect(changes.sourceTimes).toEqual({});
  });

  it('announces a known order’s transition, dated when it happened, and commits the next version', async () => {
    const order = newOrder();
    const fixture = await cycleWith(snapshotOf(order));
    const { changes, store } = await record(
      { snapshots: snapshotsOf(snapshotOf(order)), observed: observed(completedLater(order)) },
      {},
      fixture,
    );
    expect(types(changes.events)).toEqual(['order.completed']);
    expect(Object.values(changes.sourceTimes)).toEqual([Date.parse(COMPLETED_AT)]);
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)).toMatchObject({
      status: 'completed',
      version: 2,
    });
  });

  it('commits nothing for an order that has not changed', async () => {
    const order = newOrder();
    const fixture = await cycleWith(snapshotOf(order));
    const { changes, store } = await record(
      { snapshots: snapshotsOf(snapshotOf(order)), observed: observed(order) },
      {},
      fixture,
    );
    expect(changes).toEqual({ events: [], sourceTimes: {}, conflicts: 0, afterClosing: [] });
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)?.version).toBe(1);
  });

  it('records a transition `statuses` does not announce, without its event', async () => {
    const order = newOrder();
    const fixture = await cycleFixture({ organization: { statuses: ['pending', 'canceled'] } });
    await storeSnapshots(fixture.store, snapshotOf(order));
    const { changes, store } = await record(
      { snapshots: snapshotsOf(snapshotOf(order)), observed: observed(completedLater(order)) },
      {},
      fixture,
    );
    expect(changes.events).toEqual([]);
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)?.status).toBe('completed');
  });

  it('counts a conflict, and records no event, when another run committed the order first', async () => {
    const order = newOrder();
    // Loaded without a snapshot; another run has committed one since.
    const fixture = await cycleWith(snapshotOf(order));
    const { changes, store } = await record(
      { snapshots: new Map(), observed: observed(completedLater(order)) },
      {},
      fixture,
    );
    expect(changes).toEqual({ events: [], sourceTimes: {}, conflicts: 1, afterClosing: [] });
    expect(store.deliveryQueue()).toEqual([]);
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)).toEqual(snapshotOf(order));
  });

  it('counts a conflict on a known order another run moved on, and commits the others', async () => {
    const [raced, other] = [newOrder(), newOrder()];
    const fixture = await cycleWith(snapshotOf(raced), snapshotOf(other));
    await fixture.store.commitChange(ORGANIZATION.id, {
      snapshot: snapshotOf(raced, { version: 2 }),
      events: [],
    });
    const { changes } = await record(
      {
        snapshots: snapshotsOf(snapshotOf(raced), snapshotOf(other)),
        observed: observed(completedLater(raced), completedLater(other)),
      },
      {},
      fixture,
    );
    expect(changes.conflicts).toBe(1);
    expect(changes.events.map((event) => event.subject)).toEqual([other.uuid]);
  });

  it('returns no event the log already holds, though the snapshot is committed', async () => {
    const order = newOrder();
    const dryRun = await record({ observed: observed(order) });
    const fixture = await cycleFixture();
    await fixture.store.recordEvents(ORGANIZATION.id, dryRun.changes.events);
    const { changes, store } = await record({ observed: observed(order) }, {}, fixture);
    expect(changes).toEqual({ events: [], sourceTimes: {}, conflicts: 0, afterClosing: [] });
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)?.version).toBe(1);
  });

  it('commits in the order the orders were observed', async () => {
    const orders = [newOrder(), newOrder(), newOrder()];
    const { changes } = await record({
      observed: observed(orders[2] as Order, orders[0] as Order, orders[1] as Order),
    });
    expect(changes.events.map((event) => event.subject)).toEqual([
      orders[2]?.uuid,
      orders[0]?.uuid,
      orders[1]?.uuid,
    ]);
  });

  it('marks a missing order’s snapshot missing, at the cycle’s start, without an event', async () => {
    const order = newOrder();
    const fixture = await cycleWith(snapshotOf(order));
    const vanished = {
      uuid: order.uuid,
      pickupDate: TODAY,
      status: 'pending',
      establishment: ESTABLISHMENT_UUID,
    };
    const { changes, store } = await record(
      { snapshots: snapshotsOf(snapshotOf(order)), missing: [vanished] },
      {},
      fixture,
    );
    expect(changes).toEqual({ events: [], sourceTimes: {}, conflicts: 0, afterClosing: [] });
    expect((await store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)).toEqual(
      snapshotOf(order, { missingSince: new Date(T0).toISOString(), version: 2 }),
    );
  });

  it('skips a missing order it holds no snapshot of', async () => {
    const vanished = {
      uuid: newOrder().uuid,
      pickupDate: TODAY,
      status: 'pending',
      establishment: ESTABLISHMENT_UUID,
    };
    const { changes, store } = await record({ missing: [vanished] });
    expect(changes.conflicts).toBe(0);
    expect((await store.loadSnapshots(ORGANIZATION.id)).size).toBe(0);
  });

  it('flags an order event after_closing once that day’s prep summary was recorded', async () => {
    const order = newOrder();
    const prepSummaries = {
      [prepSummaryKey(ESTABLISHMENT_UUID, TODAY)]: { eventId: 'e-1', closedAt: T0, complete: true },
    };
    const { changes } = await record({ observed: observed(order), prepSummaries });
    expect((changes.events[0] as OrderEvent).data.after_closing).toBe(true);
    expect(changes.afterClosing).toEqual(changes.events);
  });

  it('hands the after-closing events on for the kitchen, those `statuses` does not announce too', async () => {
    const order = newOrder();
    const prepSummaries = {
      [prepSummaryKey(ESTABLISHMENT_UUID, TODAY)]: { eventId: 'e-1', closedAt: T0, complete: true },
    };
    const canceled = laterOrder(order, {
      status: { label: 'Canceled', value: 'canceled' },
      canceled_at: COMPLETED_AT,
      updated_at: COMPLETED_AT,
    });
    const fixture = await cycleFixture({ organization: { statuses: ['pending'] } });
    await storeSnapshots(fixture.store, snapshotOf(order));
    const { changes } = await record(
      { snapshots: snapshotsOf(snapshotOf(order)), observed: observed(canceled), prepSummaries },
      {},
      fixture,
    );
    expect(changes.events).toEqual([]);
    expect(changes.afterClosing.map((event) => [event.type, event.data.after_closing])).toEqual([
      ['order.canceled', true],
    ]);
  });

  it('hands on no after-closing event before the summary, nor one the log already held', async () => {
    const order = newOrder();
    const prepSummaries = {
      [prepSummaryKey(ESTABLISHMENT_UUID, TODAY)]: { eventId: 'e-1', closedAt: T0, complete: true },
    };
    expect((await record({ observed: observed(order) })).changes.afterClosing).toEqual([]);
    const dryRun = await record({ observed: observed(order), prepSummaries });
    const fixture = await cycleFixture();
    await fixture.store.recordEvents(ORGANIZATION.id, dryRun.changes.events);
    const { changes } = await record({ observed: observed(order), prepSummaries }, {}, fixture);
    expect(changes.afterClosing).toEqual([]);
  });

  it('names the establishment an order moved from by the cached establishments', async () => {
    const hall = makeEstablishment({ name: 'Sports hall' });
    const order = parsedOrder({ pickup_at: TODAY, establishment: { uuid: hall.uuid, name: hall.name } });
    const moved = laterOrder(order, {
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      updated_at: COMPLETED_AT,
    });
    const fixture = await cycleWith(snapshotOf(order));
    const { changes } = await record(
      {
        snapshots: snapshotsOf(snapshotOf(order)),
        observed: observed(moved),
        establishments: establishmentsCache(T0, [mainCanteen(), hall]),
      },
      {},
      fixture,
    );
    expect(types(changes.events)).toEqual(['order.rescheduled']);
    expect((changes.events[0] as OrderEvent).data.changes).toEqual([
      {
        field: 'establishment',
        from: hall.uuid,
        to: ESTABLISHMENT_UUID,
        from_name: 'Sports hall',
        to_name: 'Main canteen',
      },
    ]);
  });

  it('keeps a snapshot until its pickup date has been out of the window for the grace days', async () => {
    const order = newOrder();
    const expiry = async (organization: Partial<PolledOrganization>, snapshotGraceDays?: number) => {
      const fixture = await cycleFixture({
        organization,
        ...(snapshotGraceDays === undefined ? {} : { deps: { snapshotGraceDays } }),
      });
      await record({ observed: observed(order) }, {}, fixture);
      return (await fixture.store.loadSnapshots(ORGANIZATION.id)).get(order.uuid)?.expiresAt;
    };
    // Today's orders leave a window of no past days tomorrow; two days' grace: gone from the 13th.
    expect(await expiry({})).toBe(Date.UTC(2026, 2, 13));
    expect(await expiry({ window: { daysBack: 1, daysAhead: 7 } })).toBe(Date.UTC(2026, 2, 14));
    expect(await expiry({}, 5)).toBe(Date.UTC(2026, 2, 16));
  });

  describe('with establishments listed apart', () => {
    /** Today's pending of the canteen was walked whole a minute ago; the order was made 20 minutes ago. */
    async function firstSeen(establishmentUuid: string) {
      const coverage: Coverage = {
        pendingCoveredAt: { [`${TODAY}@${ESTABLISHMENT_UUID}`]: T0 - MINUTE },
        watchingSince: T0 - 60 * MINUTE,
      };
      const order = parsedOrder({
        pickup_at: TODAY,
        created_at: '2026-03-10T05:40:00.000000Z',
        establishment: { uuid: establishmentUuid, name: 'Main canteen' },
      });
      return (await record({ observed: observed(order), coverage }, { establishments: [ESTABLISHMENT_UUID] }))
        .changes;
    }

    it('announces an order first seen on a date its establishment’s pending covered, however old', async () => {
      expect(types((await firstSeen(ESTABLISHMENT_UUID)).events)).toEqual(['order.created']);
    });

    // The config lower-cases establishment uuids; the API may write them in capitals. Both name the same one.
    it('announces such an order when the API writes its establishment in capitals', async () => {
      expect(types((await firstSeen(ESTABLISHMENT_UUID.toUpperCase())).events)).toEqual(['order.created']);
    });
  });
});
