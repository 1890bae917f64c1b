// The SQLite adapter: the shared conformance suite on a temporary state file, then what only it does
// (WAL, reopening, the per-subscriber delivery outbox).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../../shared/delivery/deliveryOutbox.js';
import type { NotifierEvent } from '../../../shared/events/notifierEvent.js';
import { StateFileTooNewError, StateStoreError, StoreContentionError } from '../../../shared/store/errors.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import { SCHEMA_VERSION } from '../../../shared/store/sqlite/sqliteSchema.js';
import {
  SqliteStateStore,
  type SqliteStateStoreOptions,
} from '../../../shared/store/sqlite/sqliteStateStore.js';
import {
  rewriteAsSchema1,
  rewriteAsSchema4,
  rewriteAsSchema5,
  SNAPSHOTS_BACK_TO_SECONDS,
} from '../../support/olderStateFiles.js';
import {
  describeStateStoreConformance,
  makeDigest,
  makeEvent,
  makePrepSummary,
  makeSnapshot,
  newOrderUuid,
  T0,
} from '../../support/stateStoreConformance.js';

describeStateStoreConformance('SqliteStateStore', async ({ clock }) => {
  const dir = mkdtempSync(join(tmpdir(), 'state-store-'));
  const path = join(dir, 'state.db');
  const store = new SqliteStateStore({ path, clock });
  /** Runs one statement on the file through a connection of its own, as another program would. */
  const exec = async (sql: string, ...parameters: string[]) => {
    const raw = new Database(path);
    try {
      raw.prepare(sql).run(...parameters);
    } finally {
      raw.close();
    }
  };
  return {
    store,
    cleanup: async () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
    corrupt: {
      snapshotStatus: (organizationId, orderUuid) =>
        exec(
          `UPDATE snapshots SET data = json_set(data, '$.status', 7) WHERE organization_id = ? AND order_uuid = ?`,
          organizationId,
          orderUuid,
        ),
      eventPayload: (organizationId, eventId) =>
        exec(
          `UPDATE events SET payload = '{not json' WHERE organization_id = ? AND id = ?`,
          organizationId,
          eventId,
        ),
      pollStateFailures: (organizationId) =>
        exec(
          `UPDATE poll_states SET data = json_set(data, '$.health.consecutiveFailures', -1) WHERE organization_id = ?`,
          organizationId,
        ),
    },
  };
});

describe('SqliteStateStore on a state file', () => {
  const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
  let dir: string;
  const stores: SqliteStateStore[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'state-store-'));
  });
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function open(options: Partial<SqliteStateStoreOptions> = {}): SqliteStateStore {
    const store = new SqliteStateStore({
      path: join(dir, 'nested', 'state.db'),
      clock: () => T0,
      ...options,
    });
    stores.push(store);
    return store;
  }

  /** Every event goes to the webhook; cancellations also to the office. */
  const route = (event: NotifierEvent) => (event.type === 'order.canceled' ? ['hook', 'office'] : ['hook']);

  it('creates its directory, runs in WAL mode and records the schema version', () => {
    open();
    const raw = new Database(join(dir, 'nested', 'state.db'), { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  it('keeps snapshots, events and poll state across a reopen', async () => {
    const first = open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    const state = {
      ...initialPollState(ORG),
      coverage: { pendingCoveredAt: { '2026-03-05': T0 }, watchingSince: T0 },
      health: {
        lastSuccessAt: T0,
        lastAttemptAt: null,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    };
    await first.commitChange(ORG, { snapshot, events: [event] });
    await first.savePollState(state);
    first.close();
    stores.splice(0);

    const second = open();
    expect(await second.loadSnapshots(ORG)).toEqual(new Map([[snapshot.orderUuid, snapshot]]));
    expect(await second.listEvents(ORG)).toEqual([{ event, organizationId: ORG, recordedAt: T0 }]);
    expect(await second.loadPollState(ORG)).toEqual(state);
  });

  it('writes what it validated: a snapshot, events and poll state as their schemas parse them, not as handed in', async () => {
    const store = open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    const summary = makePrepSummary(ORG);
    // What a caller's object may carry beside its schema's fields: never to reach the state file.
    const extra = { debugNote: 'not part of the record' };
    await store.commitChange(ORG, { snapshot: { ...snapshot, ...extra }, events: [{ ...event, ...extra }] });
    await store.recordEvents(ORG, [{ ...summary, ...extra }]);
    await store.savePollState({ ...initialPollState(ORG), ...extra });
    expect(await store.recordDigest(ORG, { ...makeDigest(ORG), ...extra })).toBe(true);
    store.close();
    stores.splice(0);

    const raw = new Database(join(dir, 'nested', 'state.db'), { readonly: true });
    try {
      const texts = [
        ...raw
          .prepare<[], { payload: string }>('SELECT payload FROM events')
          .all()
          .map((row) => row.payload),
        ...raw
          .prepare<[], { data: string }>('SELECT data FROM snapshots')
          .all()
          .map((row) => row.data),
        ...raw
          .prepare<[], { data: string }>('SELECT data FROM poll_states')
          .all()
          .map((row) => row.data),
      ];
      expect(texts).toHaveLength(5);
      for (const text of texts) expect(JSON.parse(text)).not.toHaveProperty('debugNote');
      expect(JSON.parse(texts[0] ?? '')).toEqual(event);
    } finally {
      raw.close();
    }
  });

  it('refuses a state file written by a newer schema, naming the file and both versions', () => {
    open().close();
    stores.splice(0);
    const path = join(dir, 'nested', 'state.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();

    const error = (() => {
      try {
        open();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(StateFileTooNewError);
    expect(error).toBeInstanceOf(StateStoreError);
    expect(error).toMatchObject({
      path,
      fileVersion: SCHEMA_VERSION + 1,
      programVersion: SCHEMA_VERSION,
      retryable: false,
    });
    expect((error as Error).message).toBe(
      `cannot open state file ${path}: a newer meal-notifier wrote it (schema version ${SCHEMA_VERSION + 1}; ` +
        `this one reads up to ${SCHEMA_VERSION}); run that version or a later one, or point state.path at another file`,
    );
    // Refused before any migration touched it.
    const after = new Database(path, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
  });

  it('migrates a state file of the first schema in place, keeping what it holds', async () => {
    const path = join(dir, 'nested', 'state.db');
    const first = open();
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    await first.commitChange(ORG, { snapshot, events: [event] });
    first.close();
    stores.splice(0);
    rewriteAsSchema1(path);

    const upgraded = open({ routeEvent: route });
    expect(await upgraded.loadSnapshots(ORG)).toEqual(new Map([[snapshot.orderUuid, snapshot]]));
    expect(await upgraded.listEvents(ORG)).toEqual([{ event, organizationId: ORG, recordedAt: T0 }]);
    expect(await upgraded.outbox.disabledSubscribers()).toEqual([]);
    const check = new Database(path, { readonly: true });
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const index = check
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'deliveries_due_by_subscriber'",
        )
        .get();
      expect(index).toEqual({ name: 'deliveries_due_by_subscriber' });
    } finally {
      check.close();
    }
  });

  it('migrates a state file whose snapshots expire in epoch seconds to ms, each expiring at the same instant', async () => {
    const path = join(dir, 'nested', 'state.db');
    // Expiries a whole day apart, as the poller sets them (a pickup date plus grace days, at midnight UTC),
    // and an event (whose expiry was always in ms) kept until the first of them.
    const expiring = makeSnapshot(newOrderUuid(), { expiresAt: Date.UTC(2026, 2, 8) });
    const lasting = makeSnapshot(newOrderUuid(), { expiresAt: Date.UTC(2026, 2, 9) });
    const first = open({ eventRetentionMs: expiring.expiresAt - T0 });
    const event = makeEvent(ORG, expiring.orderUuid, 'order.created');
    await first.commitChange(ORG, { snapshot: expiring, events: [event] });
    await first.commitChange(ORG, { snapshot: lasting, events: [] });
    first.close();
    stores.splice(0);
    // The file as schema 3 wrote it: a snapshot's expiry in epoch seconds, in its column and in its JSON.
    rewriteAsSchema5(path);
    const raw = new Database(path);
    raw.exec(SNAPSHOTS_BACK_TO_SECONDS);
    expect(raw.prepare('SELECT expires_at FROM snapshots ORDER BY expires_at').pluck().all()).toEqual([
      expiring.expiresAt / 1000,
      lasting.expiresAt / 1000,
    ]);
    raw.pragma('user_version = 3');
    raw.close();

    const upgraded = open();
    expect(await upgraded.loadSnapshots(ORG)).toEqual(
      new Map([
        [expiring.orderUuid, expiring],
        [lasting.orderUuid, lasting],
      ]),
    );
    // Schema 3 pruned a snapshot once `expires_at * 1000 <= now`: the same instants, now in ms.
    expect(await upgraded.prune(expiring.expiresAt - 1)).toEqual({ snapshots: 0, events: 0 });
    expect(await upgraded.prune(expiring.expiresAt)).toEqual({ snapshots: 1, events: 1 });
    expect([...(await upgraded.loadSnapshots(ORG)).keys()]).toEqual([lasting.orderUuid]);
    expect(await upgraded.prune(lasting.expiresAt - 1)).toEqual({ snapshots: 0, events: 0 });
    expect(await upgraded.prune(lasting.expiresAt)).toEqual({ snapshots: 1, events: 0 });
    const check = new Database(path, { readonly: true });
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      check.close();
    }
  });

  it('migrates the poll states of a schema 4 file into the records, keeping every value, and leaves a spoiled one to name its field', async () => {
    const path = join(dir, 'nested', 'state.db');
    const first = open();
    const state: PollState = {
      ...initialPollState(ORG),
      listings: { sizes: { pending: 40, completed: 120 }, walkedAt: { pending: T0 } },
      coverage: { pendingCoveredAt: { '2026-03-05': T0 }, watchingSince: T0 - 60_000 },
      sweep: {
        inProgress: { key: 'completed', nextPage: 3, startedAt: T0 },
        sweptAt: { canceled: T0 },
        credit: 1.5,
      },
      lookups: { searched: { [newOrderUuid()]: ['completed'] }, averageRequests: 2.5 },
      prepSummaries: { 'est-1|2026-03-05': { eventId: 'evt-1', closedAt: T0, complete: true } },
      pace: { averageCycleRequests: 9.5, nextPollAt: T0 + 15_000 },
      health: {
        lastSuccessAt: T0,
        lastAttemptAt: T0,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    };
    const spoiled = randomUUID();
    await first.savePollState(state);
    await first.savePollState(initialPollState(spoiled));
    first.close();
    stores.splice(0);
    rewriteAsSchema4(path);
    const raw = new Database(path);
    const stored = (organizationId: string) =>
      JSON.parse(
        raw
          .prepare<[string], string>('SELECT data FROM poll_states WHERE organization_id = ?')
          .pluck()
          .get(organizationId) ?? 'null',
      );
    expect(stored(ORG)).toMatchObject({ listingSizes: state.listings.sizes, cycleRequests: 9.5 });
    raw
      .prepare(
        `UPDATE poll_states SET data = json_set(data, '$.consecutiveFailures', -1) WHERE organization_id = ?`,
      )
      .run(spoiled);
    raw.close();

    const upgraded = open();
    expect(await upgraded.loadPollState(ORG)).toEqual(state);
    await expect(upgraded.loadPollState(spoiled)).rejects.toMatchObject({
      name: 'MalformedRecordError',
      record: 'poll state',
      field: 'consecutiveFailures',
    });
    const check = new Database(path, { readonly: true });
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // Rewritten in the file, not only read as the records.
      const data = check
        .prepare<[string], string>('SELECT data FROM poll_states WHERE organization_id = ?')
        .pluck();
      expect(JSON.parse(data.get(ORG) ?? 'null')).toEqual(state);
      expect(JSON.parse(data.get(spoiled) ?? 'null')).toMatchObject({ consecutiveFailures: -1 });
    } finally {
      check.close();
    }
  });

  it('reports a database locked by another writer as retryable contention', async () => {
    const store = open({ busyTimeoutMs: 0 });
    const other = new Database(join(dir, 'nested', 'state.db'));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const error = await store
        .commitChange(ORG, { snapshot: makeSnapshot(newOrderUuid()), events: [] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreContentionError);
      expect(error).toMatchObject({ retryable: true, organization: ORG, operation: 'commitChange' });
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(await store.loadSnapshots(ORG)).toEqual(new Map());
  });

  describe('delivery outbox', () => {
    it('queues one delivery per routed subscriber with the event, attempt 0, due when recorded', async () => {
      const store = open({ routeEvent: route });
      const snapshot = makeSnapshot(newOrderUuid(), { status: 'canceled' });
      const event = makeEvent(ORG, snapshot.orderUuid, 'order.canceled');
      await store.commitChange(ORG, { snapshot, events: [event] });

      expect(await store.outbox.listDeliveries()).toEqual([
        queued('hook', event.id),
        queued('office', event.id),
      ]);
      expect(await store.getEvent(event.id)).toEqual({ event, organizationId: ORG, recordedAt: T0 });
    });

    it('queues a recorded prep summary like an order event, and nothing when it is recorded again', async () => {
      const store = open({ routeEvent: route });
      const summary = makePrepSummary(ORG);
      await store.recordEvents(ORG, [summary]);
      await store.outbox.markDelivered('hook', summary.id, T0 + 10);
      await store.recordEvents(ORG, [summary]);

      expect(await store.outbox.listDeliveries()).toEqual([
        { ...queued('hook', summary.id), status: 'delivered', attempts: 1, deliveredAt: T0 + 10 },
      ]);
    });

    it('queues nothing for an event already in the log, nor for a commit that conflicts', async () => {
      const store = open({ routeEvent: route });
      const v1 = makeSnapshot(newOrderUuid());
      const created = makeEvent(ORG, v1.orderUuid, 'order.created');
      await store.commitChange(ORG, { snapshot: v1, events: [created] });
      await store.outbox.markDelivered('hook', created.id, T0 + 10);

      await store.commitChange(ORG, { snapshot: { ...v1, version: 2 }, events: [created] });
      await store.commitChange(ORG, {
        snapshot: { ...v1, status: 'canceled', version: 2 },
        events: [makeEvent(ORG, v1.orderUuid, 'order.canceled')],
      });

      expect(await store.outbox.listDeliveries()).toEqual([
        { ...queued('hook', created.id), status: 'delivered', attempts: 1, deliveredAt: T0 + 10 },
      ]);
    });

    it('writes the outbox rows in the event’s transaction: a failure leaves no event, snapshot or row', async () => {
      const store = open({
        routeEvent: (event) => {
          if (event.type === 'order.archived') throw new Error('router failed');
          return ['hook'];
        },
      });
      const snapshot = makeSnapshot(newOrderUuid(), { status: 'archived' });
      const completed = makeEvent(ORG, snapshot.orderUuid, 'order.completed');
      const archived = makeEvent(ORG, snapshot.orderUuid, 'order.archived');

      await expect(store.commitChange(ORG, { snapshot, events: [completed, archived] })).rejects.toThrow(
        'router failed',
      );

      expect(await store.outbox.listDeliveries()).toEqual([]);
      expect(await store.listEvents(ORG)).toEqual([]);
      expect(await store.loadSnapshots(ORG)).toEqual(new Map());
    });

    it('hands out due deliveries oldest first, with their events, up to the limit', async () => {
      let now = T0;
      const store = open({ routeEvent: route, clock: () => now });
      const events = [];
      for (let i = 0; i < 3; i += 1) {
        now = T0 + i * 1_000;
        const snapshot = makeSnapshot(newOrderUuid());
        const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
        events.push(event);
        await store.commitChange(ORG, { snapshot, events: [event] });
      }

      expect(await store.outbox.dueDeliveries('hook', T0 - 1, 10)).toEqual([]);
      const due = await store.outbox.dueDeliveries('hook', T0 + 1_000, 10);
      expect(due.map((delivery) => delivery.eventId)).toEqual([events[0]?.id, events[1]?.id]);
      expect(due[0]).toMatchObject({ subscriberId: 'hook', organizationId: ORG, event: events[0] });
      expect(
        (await store.outbox.dueDeliveries('hook', T0 + 5_000, 2)).map((delivery) => delivery.eventId),
      ).toEqual([events[0]?.id, events[1]?.id]);
    });

    it('lists each subscriber with something queued and when its earliest delivery falls due', async () => {
      let now = T0;
      const store = open({ routeEvent: route, clock: () => now });
      const events = [];
      for (let i = 0; i < 2; i += 1) {
        now = T0 + i * 1_000;
        const snapshot = makeSnapshot(newOrderUuid(), { status: 'canceled' });
        const event = makeEvent(ORG, snapshot.orderUuid, 'order.canceled');
        events.push(event);
        await store.commitChange(ORG, { snapshot, events: [event] });
      }
      await store.outbox.markFailed('office', events[0]?.id ?? '', {
        attempts: 1,
        nextAttemptAt: T0 + 5_000,
        error: 'HTTP 503',
        dead: false,
      });
      await store.outbox.markDelivered('hook', events[0]?.id ?? '', T0 + 10);

      expect(await store.outbox.queuedSubscribers()).toEqual([
        { subscriberId: 'hook', nextAttemptAt: T0 + 1_000 },
        { subscriberId: 'office', nextAttemptAt: T0 + 1_000 },
      ]);
      await store.outbox.markDelivered('office', events[1]?.id ?? '', T0 + 10);
      expect(await store.outbox.queuedSubscribers()).toEqual([
        { subscriberId: 'hook', nextAttemptAt: T0 + 1_000 },
        { subscriberId: 'office', nextAttemptAt: T0 + 5_000 },
      ]);
      expect((await store.outbox.dueDeliveries('office', T0 + 5_000, 10)).map((d) => d.eventId)).toEqual([
        events[0]?.id,
      ]);
    });

    it('reschedules a failed attempt, and keeps a dead letter with its last error out of the due list', async () => {
      const store = open({ routeEvent: route });
      const snapshot = makeSnapshot(newOrderUuid());
      const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
      await store.commitChange(ORG, { snapshot, events: [event] });

      expect(
        await store.outbox.markFailed('hook', event.id, {
          attempts: 1,
          nextAttemptAt: T0 + 5_000,
          error: 'HTTP 503',
          dead: false,
        }),
      ).toBe(true);
      expect(await store.outbox.dueDeliveries('hook', T0 + 4_999, 10)).toEqual([]);
      expect(await store.outbox.dueDeliveries('hook', T0 + 5_000, 10)).toEqual([
        expect.objectContaining({ attempts: 1, lastError: 'HTTP 503', status: 'queued' }),
      ]);

      await store.outbox.markFailed('hook', event.id, {
        attempts: 8,
        nextAttemptAt: T0 + 9_000,
        error: 'HTTP 410 Gone',
        dead: true,
      });
      expect(await store.outbox.dueDeliveries('hook', T0 + 86_400_000, 10)).toEqual([]);
      expect(await store.outbox.listDeliveries({ status: 'dead' })).toEqual([
        {
          ...queued('hook', event.id),
          status: 'dead',
          attempts: 8,
          nextAttemptAt: T0 + 9_000,
          lastError: 'HTTP 410 Gone',
        },
      ]);
      expect(await store.outbox.listDeliveries({ status: 'queued' })).toEqual([]);
    });

    it('tells each given event’s deliveries, whatever their state, and nothing of other events', async () => {
      const store = open({ routeEvent: route });
      const [a, b, c] = [newOrderUuid(), newOrderUuid(), newOrderUuid()];
      const canceled = makeEvent(ORG, a, 'order.canceled');
      const created = makeEvent(ORG, b, 'order.created');
      const other = makeEvent(ORG, c, 'order.created');
      for (const [uuid, event] of [
        [a, canceled],
        [b, created],
        [c, other],
      ] as const) {
        await store.commitChange(ORG, { snapshot: makeSnapshot(uuid), events: [event] });
      }
      await store.outbox.markDelivered('hook', canceled.id, T0 + 1_000);

      expect(await store.outbox.deliveriesOf([canceled.id, created.id, 'unknown-event'])).toEqual(
        expect.arrayContaining([
          { ...queued('hook', canceled.id), status: 'delivered', attempts: 1, deliveredAt: T0 + 1_000 },
          queued('office', canceled.id),
          queued('hook', created.id),
        ]),
      );
      expect(await store.outbox.deliveriesOf([canceled.id, created.id])).toHaveLength(3);
      expect(await store.outbox.deliveriesOf([])).toEqual([]);
    });

    it('requeues a dead letter, a delivered event, or an event for a new subscriber, from attempt 0', async () => {
      const store = open({ routeEvent: route });
      const snapshot = makeSnapshot(newOrderUuid());
      const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
      await store.commitChange(ORG, { snapshot, events: [event] });
      await store.outbox.markFailed('hook', event.id, {
        attempts: 8,
        nextAttemptAt: T0,
        error: 'HTTP 500',
        dead: true,
      });

      expect(await store.outbox.requeue('hook', event.id, T0 + 100)).toBe(true);
      expect(await store.outbox.requeue('late-subscriber', event.id, T0 + 100)).toBe(true);
      expect(await store.outbox.requeue('hook', 'no-such-event', T0 + 100)).toBe(false);

      expect(await store.outbox.dueDeliveries('hook', T0 + 100, 10)).toEqual([
        expect.objectContaining({
          subscriberId: 'hook',
          attempts: 0,
          status: 'queued',
          lastError: 'HTTP 500',
        }),
      ]);
      expect(await store.outbox.dueDeliveries('late-subscriber', T0 + 100, 10)).toEqual([
        expect.objectContaining({
          subscriberId: 'late-subscriber',
          attempts: 0,
          status: 'queued',
          lastError: null,
        }),
      ]);
      await store.outbox.markDelivered('hook', event.id, T0 + 200);
      expect(await store.outbox.requeue('hook', event.id, T0 + 300)).toBe(true);
      expect(await store.outbox.listDeliveries({ status: 'queued' })).toHaveLength(2);
    });

    it('answers false when marking a delivery that does not exist', async () => {
      const store = open();
      expect(await store.outbox.markDelivered('hook', 'missing', T0)).toBe(false);
      expect(
        await store.outbox.markFailed('hook', 'missing', {
          attempts: 1,
          nextAttemptAt: T0,
          error: 'x',
          dead: false,
        }),
      ).toBe(false);
      expect(await store.getEvent('missing')).toBeUndefined();
    });

    it('dead-letters a disabled subscriber’s queued deliveries and queues nothing more for it until enabled', async () => {
      const store = open({ routeEvent: route });
      const first = makeSnapshot(newOrderUuid(), { status: 'canceled' });
      const queuedEvent = makeEvent(ORG, first.orderUuid, 'order.canceled');
      await store.commitChange(ORG, { snapshot: first, events: [queuedEvent] });

      await store.outbox.disableSubscriber('hook', 'HTTP 410 Gone', T0 + 1);
      const second = makeSnapshot(newOrderUuid(), { status: 'canceled' });
      const laterEvent = makeEvent(ORG, second.orderUuid, 'order.canceled');
      await store.commitChange(ORG, { snapshot: second, events: [laterEvent] });

      expect(await store.outbox.disabledSubscribers()).toEqual([
        { subscriberId: 'hook', disabledAt: T0 + 1, reason: 'HTTP 410 Gone' },
      ]);
      const hook = (await store.outbox.listDeliveries()).filter(
        (delivery) => delivery.subscriberId === 'hook',
      );
      expect(hook).toEqual([
        {
          ...queued('hook', queuedEvent.id),
          status: 'dead',
          lastError: 'subscriber disabled: HTTP 410 Gone',
        },
      ]);
      expect((await store.outbox.listDeliveries({ status: 'queued' })).map((d) => d.subscriberId)).toEqual([
        'office',
        'office',
      ]);

      expect(await store.outbox.enableSubscriber('hook')).toBe(true);
      expect(await store.outbox.enableSubscriber('hook')).toBe(false);
      const third = makeSnapshot(newOrderUuid(), { status: 'canceled' });
      await store.commitChange(ORG, {
        snapshot: third,
        events: [makeEvent(ORG, third.orderUuid, 'order.canceled')],
      });
      expect(
        (await store.outbox.listDeliveries({ status: 'queued' })).filter((d) => d.subscriberId === 'hook'),
      ).toHaveLength(1);
    });
  });

  it('prunes expired snapshots, and events past retention with their deliveries', async () => {
    const store = open({ routeEvent: route, eventRetentionMs: 10_000 });
    const expiring = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 5_000 });
    const lasting = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 50_000 });
    const event = makeEvent(ORG, expiring.orderUuid, 'order.created');
    await store.commitChange(ORG, { snapshot: expiring, events: [event] });
    await store.commitChange(ORG, { snapshot: lasting, events: [] });

    expect(await store.prune(T0 + 4_999)).toEqual({ snapshots: 0, events: 0 });
    expect(await store.prune(T0 + 10_000)).toEqual({ snapshots: 1, events: 1 });

    expect([...(await store.loadSnapshots(ORG)).keys()]).toEqual([lasting.orderUuid]);
    expect(await store.listEvents(ORG)).toEqual([]);
    expect(await store.outbox.listDeliveries()).toEqual([]);
  });
});

function queued(subscriberId: string, eventId: string): Delivery {
  return {
    subscriberId,
    eventId,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: T0,
    lastError: null,
    deliveredAt: null,
  };
}
