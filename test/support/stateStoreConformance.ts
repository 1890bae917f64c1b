// The behaviour every StateStore adapter must show, as one suite each adapter's test file runs: snapshots
// and optimistic versions, the idempotent event log, poll state, the lease (alone, given back with the poll
// state, and fencing a cycle's writes), the request budget, and the typed errors for a bad value handed in or
// a bad record read back.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Snapshot } from '../../shared/detect/snapshot.js';
import { buildPrepSummary } from '../../shared/events/buildPrepSummary.js';
import { DIGEST_EVENT_TYPE, type DigestEvent } from '../../shared/events/digestEvent.js';
import { eventId } from '../../shared/events/eventId.js';
import type { OrderEvent, OrderEventType } from '../../shared/events/orderEvent.js';
import type { PrepSummaryEvent } from '../../shared/events/prepSummaryEvent.js';
import {
  LeaseLostError,
  MalformedRecordError,
  StateStoreError,
  StoreInputError,
} from '../../shared/store/errors.js';
import type { EventQuery } from '../../shared/store/eventQuery.js';
import { initialPollState, type PollState } from '../../shared/store/pollState.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { takeOne } from './budgetTake.js';

/**
 * 300 transactional commits, ten at a time, on DynamoDB Local: up to 200 ms each with two CPU-bound
 * processes and other test runs beside the suite (60 s did not hold).
 */
const THREE_HUNDRED_COMMITS = 120_000;

export interface StoreHarness {
  store: StateStore;
  cleanup(): Promise<void>;
  /** Spoils stored records behind the store's back, as a bad edit or a bug in another version might. */
  corrupt: RecordCorrupter;
}

export interface RecordCorrupter {
  /** Makes the stored snapshot's `status` a number. */
  snapshotStatus(organizationId: string, orderUuid: string): Promise<void>;
  /** Makes the stored event's payload something that is not JSON. */
  eventPayload(organizationId: string, eventId: string): Promise<void>;
  /** Makes the stored poll state's `health.consecutiveFailures` negative. */
  pollStateFailures(organizationId: string): Promise<void>;
}

export interface StoreHarnessOptions {
  /** The store's clock for `recordedAt`; the suite moves it. */
  clock: () => number;
}

export const T0 = Date.UTC(2026, 2, 5, 12, 0, 0);
const WINDOW = 60_000;

let orderSequence = 0;

/** A fresh order uuid per call, so tests never collide. */
export function newOrderUuid(): string {
  orderSequence += 1;
  return `00000000-0000-4000-8000-${orderSequence.toString(16).padStart(12, '0')}`;
}

export function makeSnapshot(orderUuid: string, overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    orderUuid,
    status: 'pending',
    canceledAt: null,
    completedAt: null,
    pickupDate: '2026-03-06',
    establishmentUuid: 'e5a1b2c3-0000-4000-8000-000000000001',
    updatedAt: '2026-03-05T09:15:00.000000Z',
    missingSince: null,
    version: 1,
    expiresAt: T0 + 30 * 86_400_000,
    ...overrides,
  };
}

/** A valid CloudEvent for `orderUuid`; `state` varies the deterministic id. */
export function makeEvent(
  organizationId: string,
  orderUuid: string,
  type: OrderEventType,
  state: string = type,
): OrderEvent {
  return {
    specversion: '1.0',
    id: eventId(organizationId, orderUuid, type, state),
    source: `https://example.test/api/v1/admin/organizations/${organizationId}`,
    type,
    subject: orderUuid,
    time: new Date(T0).toISOString(),
    datacontenttype: 'application/json',
    data: {
      organization: { id: organizationId, name: 'North School' },
      order: {
        uuid: orderUuid,
        reference: 'ORD-1',
        status: 'canceled',
        pickup_date: '2026-03-06',
        establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000001', name: 'Main canteen' },
        customer: {
          name: 'Ana Silva',
          class: null,
          parent: { name: 'Rui Silva', email: 'parent@example.test', phone: null },
        },
        total: { amount: '350', currency: 'EUR', formatted: '€3.50' },
        payment_method: 'card',
        items: [{ name: 'Vegetable soup', quantity: 2 }],
      },
      changes: [
        { field: 'status', from: 'pending', to: 'canceled' },
        { field: 'canceled_at', from: null, to: '2026-03-05T10:00:00.000000Z' },
      ],
    },
  };
}

/** A prep summary of the main canteen for `pickupDate`, with no orders. */
export function makePrepSummary(organizationId: string, pickupDate = '2026-03-06'): PrepSummaryEvent {
  return buildPrepSummary({
    organization: { id: organizationId, name: 'North School' },
    establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000001', name: 'Main canteen' },
    pickupDate,
    closedAt: `${pickupDate}T10:00:00+00:00`,
    source: `https://example.test/api/v1/admin/organizations/${organizationId}`,
    time: new Date(T0).toISOString(),
    orders: [],
    canceledBeforeClosing: 0,
  });
}

/** A one-event hourly digest of the organization for subscriber `ops`. */
export function makeDigest(organizationId: string): DigestEvent {
  const event = makeEvent(organizationId, newOrderUuid(), 'order.created');
  return {
    specversion: '1.0',
    id: `digest-${organizationId}`,
    source: event.source,
    type: DIGEST_EVENT_TYPE,
    subject: 'ops',
    time: '2026-03-05T13:00:00+00:00',
    datacontenttype: 'application/json',
    data: {
      subscriber_id: 'ops',
      organization: { id: organizationId, name: 'North School', time_zone: 'Europe/Lisbon' },
      every: '1h',
      period_start: '2026-03-05T12:00:00+00:00',
      period_end: '2026-03-05T13:00:00+00:00',
      by_type: [{ name: 'order.created', count: 1 }],
      by_establishment: [{ name: 'Main canteen', count: 1 }],
      events: [
        {
          event_id: event.id,
          type: 'order.created',
          reference: 'ORD-1',
          establishment: 'Main canteen',
          pickup_date: '2026-03-06',
          time: event.time,
        },
      ],
    },
  };
}

export function describeStateStoreConformance(
  name: string,
  createStore: (options: StoreHarnessOptions) => Promise<StoreHarness>,
): void {
  describe(`${name} (state store conformance)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });

    /** A store on its own clock (starting at T0), and a fresh organization id. */
    async function open() {
      let now = T0;
      const harness = await createStore({ clock: () => now });
      cleanups.push(harness.cleanup);
      return {
        store: harness.store,
        corrupt: harness.corrupt,
        organizationId: randomUUID(),
        setNow: (ms: number) => {
          now = ms;
        },
      };
    }

    describe('snapshots', () => {
      it('loads nothing for an organization it has never seen', async () => {
        const { store, organizationId } = await open();
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
      });

      it('round-trips a snapshot field for field, nulls included', async () => {
        const { store, organizationId } = await open();
        const canceled = makeSnapshot(newOrderUuid(), {
          status: 'canceled',
          canceledAt: '2026-03-05T10:00:00.000000Z',
          missingSince: '2026-03-05T11:00:00.000Z',
        });
        const pending = makeSnapshot(newOrderUuid());
        await store.commitChange(organizationId, { snapshot: canceled, events: [] });
        await store.commitChange(organizationId, { snapshot: pending, events: [] });
        expect(await store.loadSnapshots(organizationId)).toEqual(
          new Map([
            [canceled.orderUuid, canceled],
            [pending.orderUuid, pending],
          ]),
        );
      });

      it('keeps each organization’s snapshots apart', async () => {
        const { store, organizationId } = await open();
        const other = randomUUID();
        const mine = makeSnapshot(newOrderUuid());
        await store.commitChange(organizationId, { snapshot: mine, events: [] });
        await store.commitChange(other, { snapshot: makeSnapshot(newOrderUuid()), events: [] });
        expect([...(await store.loadSnapshots(organizationId)).keys()]).toEqual([mine.orderUuid]);
        expect((await store.loadSnapshots(other)).has(mine.orderUuid)).toBe(false);
      });

      it('replaces a snapshot with the next version', async () => {
        const { store, organizationId } = await open();
        const v1 = makeSnapshot(newOrderUuid());
        const v2 = { ...v1, status: 'completed', completedAt: '2026-03-05T13:00:00.000000Z', version: 2 };
        expect(await store.commitChange(organizationId, { snapshot: v1, events: [] })).toEqual({
          outcome: 'committed',
          duplicateEventIds: [],
        });
        expect(await store.commitChange(organizationId, { snapshot: v2, events: [] })).toEqual({
          outcome: 'committed',
          duplicateEventIds: [],
        });
        expect((await store.loadSnapshots(organizationId)).get(v1.orderUuid)).toEqual(v2);
      });

      it('loads 300 snapshots of one organization in one call', {
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
        const loaded = await store.loadSnapshots(organizationId);
        expect(loaded.size).toBe(300);
        expect(loaded.get(snapshots[299]?.orderUuid ?? '')).toEqual(snapshots[299]);
      });
    });

    describe('commits', () => {
      it('refuses a first version for an order that exists, writing neither snapshot nor events', async () => {
        const { store, organizationId } = await open();
        const original = makeSnapshot(newOrderUuid());
        await store.commitChange(organizationId, { snapshot: original, events: [] });
        const rival = { ...original, status: 'canceled', canceledAt: '2026-03-05T10:00:00.000000Z' };
        const events = [
          makeEvent(organizationId, original.orderUuid, 'order.created'),
          makeEvent(organizationId, original.orderUuid, 'order.canceled'),
        ];
        expect(await store.commitChange(organizationId, { snapshot: rival, events })).toEqual({
          outcome: 'version_conflict',
        });
        expect((await store.loadSnapshots(organizationId)).get(original.orderUuid)).toEqual(original);
        expect(await store.listEvents(organizationId)).toEqual([]);
      });

      it('refuses a stale version and one that skips ahead, writing nothing', async () => {
        const { store, organizationId } = await open();
        const v1 = makeSnapshot(newOrderUuid());
        const v2 = { ...v1, status: 'completed', version: 2 };
        await store.commitChange(organizationId, { snapshot: v1, events: [] });
        await store.commitChange(organizationId, { snapshot: v2, events: [] });
        const stale = { ...v1, status: 'canceled', version: 2 };
        const ahead = { ...v1, status: 'archived', version: 4 };
        const event = makeEvent(organizationId, v1.orderUuid, 'order.canceled');
        expect(await store.commitChange(organizationId, { snapshot: stale, events: [event] })).toEqual({
          outcome: 'version_conflict',
        });
        expect(await store.commitChange(organizationId, { snapshot: ahead, events: [event] })).toEqual({
          outcome: 'version_conflict',
        });
        expect((await store.loadSnapshots(organizationId)).get(v1.orderUuid)).toEqual(v2);
        expect(await store.listEvents(organizationId)).toEqual([]);
      });

      it('refuses a later version for an order it has never stored', async () => {
        const { store, organizationId } = await open();
        const v3 = makeSnapshot(newOrderUuid(), { version: 3 });
        expect(await store.commitChange(organizationId, { snapshot: v3, events: [] })).toEqual({
          outcome: 'version_conflict',
        });
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
      });

      it('commits an event already in the log once, reporting it as a duplicate', async () => {
        const { store, organizationId, setNow } = await open();
        const v1 = makeSnapshot(newOrderUuid());
        const created = makeEvent(organizationId, v1.orderUuid, 'order.created');
        const canceled = makeEvent(organizationId, v1.orderUuid, 'order.canceled');
        await store.commitChange(organizationId, { snapshot: v1, events: [created] });
        setNow(T0 + 1_000);
        const v2 = { ...v1, status: 'canceled', version: 2 };
        expect(
          await store.commitChange(organizationId, { snapshot: v2, events: [created, canceled] }),
        ).toEqual({
          outcome: 'committed',
          duplicateEventIds: [created.id],
        });
        expect(await store.listEvents(organizationId)).toEqual([
          { event: created, organizationId, recordedAt: T0 },
          { event: canceled, organizationId, recordedAt: T0 + 1_000 },
        ]);
        expect((await store.loadSnapshots(organizationId)).get(v1.orderUuid)).toEqual(v2);
      });

      it('commits the snapshot even when every event was already logged', async () => {
        const { store, organizationId } = await open();
        const v1 = makeSnapshot(newOrderUuid());
        const created = makeEvent(organizationId, v1.orderUuid, 'order.created');
        await store.commitChange(organizationId, { snapshot: v1, events: [created] });
        const v2 = { ...v1, missingSince: null, updatedAt: '2026-03-05T09:16:00.000000Z', version: 2 };
        expect(await store.commitChange(organizationId, { snapshot: v2, events: [created] })).toEqual({
          outcome: 'committed',
          duplicateEventIds: [created.id],
        });
        expect((await store.loadSnapshots(organizationId)).get(v1.orderUuid)).toEqual(v2);
        expect(await store.listEvents(organizationId)).toHaveLength(1);
      });

      it('logs an event repeated within one change once', async () => {
        const { store, organizationId } = await open();
        const v1 = makeSnapshot(newOrderUuid());
        const created = makeEvent(organizationId, v1.orderUuid, 'order.created');
        expect(
          await store.commitChange(organizationId, { snapshot: v1, events: [created, created] }),
        ).toEqual({
          outcome: 'committed',
          duplicateEventIds: [created.id],
        });
        expect((await store.listEvents(organizationId)).map((stored) => stored.event.id)).toEqual([
          created.id,
        ]);
      });

      it('rejects a snapshot version below 1 as a store error', async () => {
        const { store, organizationId } = await open();
        const zero = makeSnapshot(newOrderUuid(), { version: 0 });
        await expect(
          store.commitChange(organizationId, { snapshot: zero, events: [] }),
        ).rejects.toBeInstanceOf(StateStoreError);
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
      });
    });

    describe('events without a snapshot', () => {
      it('records a prep summary once, reporting it as a duplicate when recorded again, and lists it', async () => {
        const { store, organizationId, setNow } = await open();
        const summary = makePrepSummary(organizationId);
        expect(await store.recordEvents(organizationId, [summary])).toEqual({ duplicateEventIds: [] });
        setNow(T0 + 1_000);
        expect(await store.recordEvents(organizationId, [summary])).toEqual({
          duplicateEventIds: [summary.id],
        });
        expect(await store.listEvents(organizationId)).toEqual([
          { event: summary, organizationId, recordedAt: T0 },
        ]);
        expect(
          await store.findEvents(organizationId, { types: ['establishment.prep_summary'], limit: 10 }),
        ).toEqual([{ event: summary, organizationId, recordedAt: T0 }]);
      });

      it('records the new among duplicates, each id once', async () => {
        const { store, organizationId, setNow } = await open();
        const first = makePrepSummary(organizationId, '2026-03-06');
        const second = makePrepSummary(organizationId, '2026-03-07');
        await store.recordEvents(organizationId, [first]);
        // Events recorded in one millisecond have no order the stores agree on; the log is ordered by time.
        setNow(T0 + 1_000);
        expect(await store.recordEvents(organizationId, [first, second, second])).toEqual({
          duplicateEventIds: expect.arrayContaining([first.id, second.id]),
        });
        expect((await store.listEvents(organizationId)).map((stored) => stored.event.id)).toEqual([
          first.id,
          second.id,
        ]);
      });

      it('rejects an event that is not one as a store error, logging nothing', async () => {
        const { store, organizationId } = await open();
        const broken = {
          ...makePrepSummary(organizationId),
          type: 'nonsense',
        } as unknown as PrepSummaryEvent;
        await expect(store.recordEvents(organizationId, [broken])).rejects.toBeInstanceOf(StateStoreError);
        expect(await store.listEvents(organizationId)).toEqual([]);
      });
    });

    describe('event log', () => {
      it('lists events oldest first, events of one commit in their given order', async () => {
        const { store, organizationId, setNow } = await open();
        const [a, b, c] = [newOrderUuid(), newOrderUuid(), newOrderUuid()];
        const first = makeEvent(organizationId, a, 'order.created');
        const second = makeEvent(organizationId, b, 'order.completed');
        const third = makeEvent(organizationId, b, 'order.archived');
        const fourth = makeEvent(organizationId, c, 'order.status_changed', 'ready@1');
        setNow(T0 + 1_000);
        await store.commitChange(organizationId, { snapshot: makeSnapshot(a), events: [first] });
        setNow(T0 + 2_000);
        await store.commitChange(organizationId, { snapshot: makeSnapshot(b), events: [second, third] });
        setNow(T0 + 3_000);
        await store.commitChange(organizationId, { snapshot: makeSnapshot(c), events: [fourth] });
        expect(await store.listEvents(organizationId)).toEqual([
          { event: first, organizationId, recordedAt: T0 + 1_000 },
          { event: second, organizationId, recordedAt: T0 + 2_000 },
          { event: third, organizationId, recordedAt: T0 + 2_000 },
          { event: fourth, organizationId, recordedAt: T0 + 3_000 },
        ]);
        const ids = (since: number) =>
          store.listEvents(organizationId, since).then((events) => events.map((stored) => stored.event.id));
        expect(await ids(T0 + 2_000)).toEqual([second.id, third.id, fourth.id]);
        expect(await ids(T0 + 2_001)).toEqual([fourth.id]);
        expect(await ids(T0 + 3_001)).toEqual([]);
      });

      it('keeps each organization’s events apart', async () => {
        const { store, organizationId } = await open();
        const other = randomUUID();
        const order = newOrderUuid();
        const mine = makeEvent(organizationId, order, 'order.created');
        await store.commitChange(organizationId, { snapshot: makeSnapshot(order), events: [mine] });
        await store.commitChange(other, {
          snapshot: makeSnapshot(order),
          events: [makeEvent(other, order, 'order.created')],
        });
        expect((await store.listEvents(organizationId)).map((stored) => stored.event.id)).toEqual([mine.id]);
        expect((await store.listEvents(other)).map((stored) => stored.organizationId)).toEqual([other]);
      });

      it('finds events newest first, by time, types and order (reference or uuid, any case), up to the limit', async () => {
        const { store, organizationId, setNow } = await open();
        const [a, b] = [newOrderUuid(), newOrderUuid()];
        const withReference = (event: OrderEvent, reference: string): OrderEvent => ({
          ...event,
          data: { ...event.data, order: { ...event.data.order, uuid: event.subject, reference } },
        });
        const created = withReference(makeEvent(organizationId, a, 'order.created'), 'NS-1031');
        const completed = withReference(makeEvent(organizationId, b, 'order.completed'), 'NS-1032');
        const archived = withReference(makeEvent(organizationId, b, 'order.archived'), 'NS-1032');
        const canceled = withReference(makeEvent(organizationId, a, 'order.canceled'), 'NS-1031');
        setNow(T0 + 1_000);
        await store.commitChange(organizationId, { snapshot: makeSnapshot(a), events: [created] });
        setNow(T0 + 2_000);
        await store.commitChange(organizationId, {
          snapshot: makeSnapshot(b),
          events: [completed, archived],
        });
        setNow(T0 + 3_000);
        await store.commitChange(organizationId, {
          snapshot: makeSnapshot(a, { version: 2 }),
          events: [canceled],
        });
        await store.commitChange(randomUUID(), {
          snapshot: makeSnapshot(a),
          events: [withReference(makeEvent(randomUUID(), a, 'order.created'), 'NS-1031')],
        });
        const ids = (query: EventQuery) =>
          store.findEvents(organizationId, query).then((found) => found.map((stored) => stored.event.id));

        expect(await store.findEvents(organizationId, { limit: 10 })).toEqual([
          { event: canceled, organizationId, recordedAt: T0 + 3_000 },
          { event: archived, organizationId, recordedAt: T0 + 2_000 },
          { event: completed, organizationId, recordedAt: T0 + 2_000 },
          { event: created, organizationId, recordedAt: T0 + 1_000 },
        ]);
        expect(await ids({ limit: 2 })).toEqual([canceled.id, archived.id]);
        expect(await ids({ limit: 10, sinceMs: T0 + 2_000 })).toEqual([
          canceled.id,
          archived.id,
          completed.id,
        ]);
        expect(await ids({ limit: 10, types: ['order.created', 'order.canceled'] })).toEqual([
          canceled.id,
          created.id,
        ]);
        expect(await ids({ limit: 10, types: [] })).toHaveLength(4);
        expect(await ids({ limit: 10, order: 'ns-1031' })).toEqual([canceled.id, created.id]);
        expect(await ids({ limit: 10, order: b.toUpperCase() })).toEqual([archived.id, completed.id]);
        expect(
          await ids({ limit: 1, order: 'NS-1032', types: ['order.completed'], sinceMs: T0 + 2_000 }),
        ).toEqual([completed.id]);
        expect(await ids({ limit: 10, order: 'NS-9999' })).toEqual([]);
      });
    });

    describe('poll state', () => {
      it('has none for an organization never polled', async () => {
        const { store, organizationId } = await open();
        expect(await store.loadPollState(organizationId)).toBeUndefined();
      });

      it('round-trips the poll state and overwrites it', async () => {
        const { store, organizationId } = await open();
        const first: PollState = {
          ...initialPollState(organizationId),
          listings: { sizes: { pending: 40, completed: 0 }, walkedAt: { pending: T0 } },
          coverage: { pendingCoveredAt: { '2026-03-05': T0 }, watchingSince: T0 },
          health: {
            lastAttemptAt: T0,
            lastSuccessAt: T0,
            consecutiveFailures: 0,
            lastError: null,
            tokenRejectedAt: null,
          },
        };
        await store.savePollState(first);
        expect(await store.loadPollState(organizationId)).toEqual(first);
        const failed: PollState = {
          ...first,
          health: {
            ...first.health,
            lastAttemptAt: T0 + 60_000,
            consecutiveFailures: 1,
            lastError: 'North School: token rejected (401)',
          },
        };
        await store.savePollState(failed);
        expect(await store.loadPollState(organizationId)).toEqual(failed);
        expect(await store.loadPollState(randomUUID())).toBeUndefined();
      });
    });

    describe('lease', () => {
      it('refuses a second owner while the lease is held', async () => {
        const { store, organizationId } = await open();
        expect(await store.acquireLease(organizationId, 'run-a', T0, 1_000)).toBe(true);
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 999, 1_000)).toBe(false);
      });

      it('grants the lease to another owner once it has run out', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 1_000);
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1_000, 1_000)).toBe(true);
        expect(await store.acquireLease(organizationId, 'run-a', T0 + 1_500, 1_000)).toBe(false);
      });

      it('lets the owner take it again, extending it', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 1_000);
        expect(await store.acquireLease(organizationId, 'run-a', T0 + 600, 1_000)).toBe(true);
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1_500, 1_000)).toBe(false);
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1_600, 1_000)).toBe(true);
      });

      it('is released only by its owner', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        await store.releaseLease(organizationId, 'run-b');
        expect(await store.acquireLease(organizationId, 'run-c', T0 + 1, 60_000)).toBe(false);
        await store.releaseLease(organizationId, 'run-a');
        expect(await store.acquireLease(organizationId, 'run-c', T0 + 2, 60_000)).toBe(true);
        await expect(store.releaseLease(randomUUID(), 'run-a')).resolves.toBeUndefined();
      });

      it('is held per organization', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        expect(await store.acquireLease(randomUUID(), 'run-b', T0, 60_000)).toBe(true);
      });

      it('tells who holds it and until when, expired or not, and nothing once given back', async () => {
        const { store, organizationId } = await open();
        expect(await store.leaseHolder(organizationId)).toBeUndefined();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-a', until: T0 + 60_000 });
        await store.releaseLease(organizationId, 'run-a');
        expect(await store.leaseHolder(organizationId)).toBeUndefined();
      });

      it('is taken over from an owner named gone, however long it still runs', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 300_000);
        expect(
          await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000, { takeOverFrom: 'run-a' }),
        ).toBe(true);
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-b', until: T0 + 60_001 });
      });

      it('is not taken over from a gone owner once someone else holds it', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 300_000);
        // Two runs both saw run-a gone; the first one took it over.
        await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000, { takeOverFrom: 'run-a' });
        expect(
          await store.acquireLease(organizationId, 'run-c', T0 + 2, 60_000, { takeOverFrom: 'run-a' }),
        ).toBe(false);
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-b', until: T0 + 60_001 });
      });

      it('has no holder for an organization with only a poll state', async () => {
        const { store, organizationId } = await open();
        await store.savePollState(initialPollState(organizationId));
        expect(await store.leaseHolder(organizationId)).toBeUndefined();
      });
    });

    describe('poll state with the lease', () => {
      const stateOf = (organizationId: string, lastAttemptAt: number): PollState => ({
        ...initialPollState(organizationId),
        coverage: { pendingCoveredAt: { '2026-03-05': lastAttemptAt }, watchingSince: lastAttemptAt },
        health: {
          lastAttemptAt,
          lastSuccessAt: lastAttemptAt,
          consecutiveFailures: 0,
          lastError: null,
          tokenRejectedAt: null,
        },
      });

      it('has no poll state for an organization that has only been leased', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        expect(await store.loadPollState(organizationId)).toBeUndefined();
      });

      it('keeps the lease when the poll state is saved without giving it back', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        await store.savePollState(stateOf(organizationId, T0));
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000)).toBe(false);
        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0));
      });

      it('keeps the poll state when the lease is taken and given back', async () => {
        const { store, organizationId } = await open();
        await store.savePollState(stateOf(organizationId, T0));
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        await store.releaseLease(organizationId, 'run-a');
        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0));
      });

      it('saves the poll state and gives the owner’s lease back in one call', async () => {
        const { store, organizationId } = await open();
        await store.savePollState(stateOf(organizationId, T0 - 60_000));
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);

        await store.savePollState(stateOf(organizationId, T0), { leaseOwner: 'run-a', releaseLease: true });

        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0));
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000)).toBe(true);
      });

      it('refuses a fenced save once another owner took the lease over, leaving its state and lease alone', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 1_000);
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1_000, 60_000)).toBe(true);
        await store.savePollState(stateOf(organizationId, T0 + 1_000), { leaseOwner: 'run-b' });

        const error = await store
          .savePollState(stateOf(organizationId, T0), { leaseOwner: 'run-a', releaseLease: true })
          .catch((caught: unknown) => caught);

        expect(error).toBeInstanceOf(LeaseLostError);
        expect(error).toMatchObject({
          operation: 'savePollState',
          organization: organizationId,
          owner: 'run-a',
          holder: 'run-b',
          retryable: false,
        });
        expect((error as Error).message).not.toContain('\n');
        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0 + 1_000));
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-b', until: T0 + 61_000 });
      });

      it('refuses a fenced save once the owner gave the lease back', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        await store.releaseLease(organizationId, 'run-a');

        await expect(
          store.savePollState(stateOf(organizationId, T0), { leaseOwner: 'run-a', releaseLease: true }),
        ).rejects.toMatchObject({ name: 'LeaseLostError', holder: undefined });

        expect(await store.loadPollState(organizationId)).toBeUndefined();
      });

      it('makes a fenced save under a lease run out that nobody took, keeping it unless given back', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 1_000);

        await store.savePollState(stateOf(organizationId, T0), { leaseOwner: 'run-a' });

        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0));
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-a', until: T0 + 1_000 });
      });

      it('saves a first poll state with the lease given back', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);

        await store.savePollState(stateOf(organizationId, T0), { leaseOwner: 'run-a', releaseLease: true });

        expect(await store.loadPollState(organizationId)).toEqual(stateOf(organizationId, T0));
        expect(await store.acquireLease(organizationId, 'run-b', T0 + 1, 60_000)).toBe(true);
      });
    });

    describe('writes fenced by the lease', () => {
      it('commits and records under the lease its owner holds', async () => {
        const { store, organizationId, setNow } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        const snapshot = makeSnapshot(newOrderUuid());
        const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
        const summary = makePrepSummary(organizationId);

        expect(
          await store.commitChange(organizationId, { snapshot, events: [event] }, { leaseOwner: 'run-a' }),
        ).toEqual({ outcome: 'committed', duplicateEventIds: [] });
        setNow(T0 + 1);
        expect(await store.recordEvents(organizationId, [summary], { leaseOwner: 'run-a' })).toEqual({
          duplicateEventIds: [],
        });
        expect((await store.listEvents(organizationId)).map(({ event }) => event.id)).toEqual([
          event.id,
          summary.id,
        ]);
      });

      it('refuses a commit and a record once another owner took the lease over, writing nothing', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 1_000);
        await store.acquireLease(organizationId, 'run-b', T0 + 1_000, 60_000);
        const snapshot = makeSnapshot(newOrderUuid());
        const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');

        const commit = await store
          .commitChange(organizationId, { snapshot, events: [event] }, { leaseOwner: 'run-a' })
          .catch((caught: unknown) => caught);
        const record = await store
          .recordEvents(organizationId, [makePrepSummary(organizationId)], { leaseOwner: 'run-a' })
          .catch((caught: unknown) => caught);

        expect(commit).toBeInstanceOf(LeaseLostError);
        expect(commit).toMatchObject({ operation: 'commitChange', owner: 'run-a', holder: 'run-b' });
        expect(record).toBeInstanceOf(LeaseLostError);
        expect(record).toMatchObject({ operation: 'recordEvents', owner: 'run-a', holder: 'run-b' });
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
        expect(await store.listEvents(organizationId)).toEqual([]);
        // The holder writes on, the same change included.
        expect(
          await store.commitChange(organizationId, { snapshot, events: [event] }, { leaseOwner: 'run-b' }),
        ).toEqual({ outcome: 'committed', duplicateEventIds: [] });
      });

      it('refuses a commit fenced by a lease never taken', async () => {
        const { store, organizationId } = await open();
        const snapshot = makeSnapshot(newOrderUuid());

        await expect(
          store.commitChange(organizationId, { snapshot, events: [] }, { leaseOwner: 'run-a' }),
        ).rejects.toBeInstanceOf(LeaseLostError);
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
      });
    });

    describe('typed errors', () => {
      async function rejectionOf(promise: Promise<unknown>): Promise<StateStoreError> {
        const caught = await promise.then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(caught).toBeInstanceOf(StateStoreError);
        return caught as StateStoreError;
      }

      it('refuses a poll state that does not fit, naming the organization and the field, writing nothing', async () => {
        const { store, organizationId } = await open();
        await store.acquireLease(organizationId, 'run-a', T0, 60_000);
        const initial = initialPollState(organizationId);
        const bad = { ...initial, health: { ...initial.health, consecutiveFailures: -1 } };

        const error = await rejectionOf(
          store.savePollState(bad, { leaseOwner: 'run-a', releaseLease: true }),
        );

        expect(error).toBeInstanceOf(StoreInputError);
        expect(error).toMatchObject({
          operation: 'savePollState',
          organization: organizationId,
          field: 'health.consecutiveFailures',
          retryable: false,
        });
        expect(error.cause).toBeInstanceOf(ZodError);
        expect(error.message).toContain(organizationId);
        expect(error.message).toContain('invalid poll state: field health.consecutiveFailures:');
        expect(error.message).not.toContain('\n');
        expect(await store.loadPollState(organizationId)).toBeUndefined();
        expect(await store.leaseHolder(organizationId)).toEqual({ owner: 'run-a', until: T0 + 60_000 });
      });

      it('refuses a snapshot that does not fit, naming the order and the field, writing nothing', async () => {
        const { store, organizationId } = await open();
        const order = newOrderUuid();
        const bad = { ...makeSnapshot(order), status: 7 } as unknown as Snapshot;
        const event = makeEvent(organizationId, order, 'order.created');

        const error = await rejectionOf(
          store.commitChange(organizationId, { snapshot: bad, events: [event] }),
        );

        expect(error).toBeInstanceOf(StoreInputError);
        expect(error).toMatchObject({
          operation: 'commitChange',
          organization: organizationId,
          field: 'status',
        });
        expect(error.cause).toBeInstanceOf(ZodError);
        expect(error.message).toContain(`invalid snapshot of order ${order}: field status:`);
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
        expect(await store.listEvents(organizationId)).toEqual([]);
      });

      it('refuses an event of a commit that is not one, naming it, writing nothing', async () => {
        const { store, organizationId } = await open();
        const order = newOrderUuid();
        const event = makeEvent(organizationId, order, 'order.created');
        const broken = { ...event, time: 42 } as unknown as OrderEvent;

        const error = await rejectionOf(
          store.commitChange(organizationId, { snapshot: makeSnapshot(order), events: [broken] }),
        );

        expect(error).toBeInstanceOf(StoreInputError);
        expect(error).toMatchObject({ organization: organizationId, field: 'time' });
        expect(error.message).toContain(`invalid event ${event.id}: field time:`);
        expect(await store.loadSnapshots(organizationId)).toEqual(new Map());
      });

      it('refuses an event query that does not fit, naming the field', async () => {
        const { store, organizationId } = await open();
        const error = await rejectionOf(store.findEvents(organizationId, { limit: 0 }));
        expect(error).toBeInstanceOf(StoreInputError);
        expect(error).toMatchObject({
          operation: 'findEvents',
          organization: organizationId,
          field: 'limit',
        });
        expect(error.cause).toBeInstanceOf(ZodError);
      });

      it('reads a spoiled snapshot back as a MalformedRecordError naming the organization, order and field', async () => {
        const { store, corrupt, organizationId } = await open();
        const snapshot = makeSnapshot(newOrderUuid());
        await store.commitChange(organizationId, { snapshot, events: [] });
        await corrupt.snapshotStatus(organizationId, snapshot.orderUuid);

        const error = await rejectionOf(store.loadSnapshots(organizationId));

        expect(error).toBeInstanceOf(MalformedRecordError);
        expect(error).toMatchObject({
          operation: 'loadSnapshots',
          organization: organizationId,
          record: `snapshot of order ${snapshot.orderUuid}`,
          field: 'status',
          retryable: false,
        });
        expect(error.cause).toBeInstanceOf(ZodError);
      });

      it('reads a spoiled event back as a MalformedRecordError naming the organization and the event', async () => {
        const { store, corrupt, organizationId } = await open();
        const snapshot = makeSnapshot(newOrderUuid());
        const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
        await store.commitChange(organizationId, { snapshot, events: [event] });
        await corrupt.eventPayload(organizationId, event.id);

        // One read at a time: a second read started early would reject unhandled while the first is awaited.
        for (const read of [
          () => store.listEvents(organizationId),
          () => store.findEvents(organizationId, { limit: 5 }),
        ]) {
          const error = await rejectionOf(read());
          expect(error).toBeInstanceOf(MalformedRecordError);
          expect(error).toMatchObject({ organization: organizationId, record: `event ${event.id}` });
          expect(error.message).toContain(`malformed event ${event.id}: not JSON`);
        }
      });

      it('reads a spoiled poll state back as a MalformedRecordError naming the organization and the field', async () => {
        const { store, corrupt, organizationId } = await open();
        await store.savePollState(initialPollState(organizationId));
        await corrupt.pollStateFailures(organizationId);

        const error = await rejectionOf(store.loadPollState(organizationId));

        expect(error).toBeInstanceOf(MalformedRecordError);
        expect(error).toMatchObject({
          operation: 'loadPollState',
          organization: organizationId,
          record: 'poll state',
          field: 'health.consecutiveFailures',
        });
        expect(error.message).toContain(organizationId);
      });
    });

    describe('request budget counters', () => {
      it('grants up to the limit within a window, then refuses until the oldest request leaves it', async () => {
        const { store } = await open();
        const counters = store.budgetCounters;
        const key = `token#${randomUUID()}`;
        const takes = [];
        for (let i = 0; i < 3; i += 1) takes.push(await takeOne(counters, key, T0 + i * 1_000, 3, WINDOW));
        expect(takes).toEqual([
          { granted: true, remaining: 2 },
          { granted: true, remaining: 1 },
          { granted: true, remaining: 0 },
        ]);
        expect(await takeOne(counters, key, T0 + 30_000, 3, WINDOW)).toEqual({
          granted: false,
          retryAtMs: T0 + WINDOW,
        });
        expect(await takeOne(counters, key, T0 + WINDOW - 1, 3, WINDOW)).toEqual({
          granted: false,
          retryAtMs: T0 + WINDOW,
        });
        expect(await takeOne(counters, key, T0 + WINDOW, 3, WINDOW)).toEqual({ granted: true, remaining: 0 });
        expect(await takeOne(counters, key, T0 + WINDOW + 1, 3, WINDOW)).toEqual({
          granted: false,
          retryAtMs: T0 + 1_000 + WINDOW,
        });
      });

      it('never grants more than the limit to simultaneous takers', async () => {
        const { store } = await open();
        const key = `token#${randomUUID()}`;
        const takes = await Promise.all(
          Array.from({ length: 12 }, (_, i) => takeOne(store.budgetCounters, key, T0 + i, 5, WINDOW)),
        );
        expect(takes.filter((take) => take.granted)).toHaveLength(5);
        expect(await store.budgetCounters.remaining(key, T0 + 100, 5, WINDOW)).toBe(0);
      });

      it('does not count refused attempts against the budget', async () => {
        const { store } = await open();
        const key = `token#${randomUUID()}`;
        await takeOne(store.budgetCounters, key, T0, 1, WINDOW);
        for (let i = 1; i <= 5; i += 1) await takeOne(store.budgetCounters, key, T0 + i, 1, WINDOW);
        expect(await takeOne(store.budgetCounters, key, T0 + WINDOW, 1, WINDOW)).toEqual({
          granted: true,
          remaining: 0,
        });
      });

      it('reports what remains in the window ending now', async () => {
        const { store } = await open();
        const key = `token#${randomUUID()}`;
        expect(await store.budgetCounters.remaining(key, T0, 5, WINDOW)).toBe(5);
        await takeOne(store.budgetCounters, key, T0, 5, WINDOW);
        await takeOne(store.budgetCounters, key, T0 + 30_000, 5, WINDOW);
        expect(await store.budgetCounters.remaining(key, T0 + 30_000, 5, WINDOW)).toBe(3);
        expect(await store.budgetCounters.remaining(key, T0 + WINDOW, 5, WINDOW)).toBe(4);
      });

      it('grants nothing while paused, never shortens a pause, then resumes', async () => {
        const { store } = await open();
        const key = `token#${randomUUID()}`;
        await store.budgetCounters.pauseUntil(key, T0 + 9_000);
        await store.budgetCounters.pauseUntil(key, T0 + 5_000);
        expect(await takeOne(store.budgetCounters, key, T0, 10, WINDOW)).toEqual({
          granted: false,
          retryAtMs: T0 + 9_000,
        });
        expect(await store.budgetCounters.remaining(key, T0 + 8_999, 10, WINDOW)).toBe(0);
        expect(await takeOne(store.budgetCounters, key, T0 + 9_000, 10, WINDOW)).toEqual({
          granted: true,
          remaining: 9,
        });
      });

      it('keeps separate budgets per key', async () => {
        const { store } = await open();
        const [a, b] = [`token#${randomUUID()}`, `token#${randomUUID()}`];
        await takeOne(store.budgetCounters, a, T0, 1, WINDOW);
        await store.budgetCounters.pauseUntil(a, T0 + 5_000);
        expect((await takeOne(store.budgetCounters, a, T0, 1, WINDOW)).granted).toBe(false);
        expect(await takeOne(store.budgetCounters, b, T0, 1, WINDOW)).toEqual({
          granted: true,
          remaining: 0,
        });
      });
    });
  });
}
