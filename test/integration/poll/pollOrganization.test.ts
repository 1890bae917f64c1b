// The poll cycle end to end in one process: the simulator over real HTTP, the real client and request
// budget, and a real state store (SQLite in memory, and the same cases on DynamoDB Local), all on one
// virtual clock. Pins the cycle's promises: a silent baseline (pending at once, the terminal listings as
// the slow sweep reaches them), exactly the transitions that happened and nothing on a quiet cycle, no
// false event while a listing keeps failing, vanished orders looked up with narrow listings in every
// status whatever `statuses` announces (and, when a full window left one, first in the next cycle, before
// the rest's part, however many are owed), a window too large for one cycle walked a part a cycle, a date
// too large for any walk told (pending's read a page a cycle, the sweep's baseline skipping it once), an
// order found nowhere marked missing once, news told from old orders on dates entering the window, a
// version conflict losing nothing, and the ways a cycle ends early: the lease held elsewhere, no budget for
// pending (deferred), a revoked token (stopped); and every problem of a listing that answered without error
// reported, an unreadable order remembered until it reads well; each new transition dated at its source,
// for the detection latency.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminApiClient } from '../../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import { CLOCK_SKEW_MS } from '../../../shared/detect/absence.js';
import { TERMINAL_STATUSES } from '../../../shared/detect/planSweep.js';
import { eventReference, type NotifierEvent } from '../../../shared/events/notifierEvent.js';
import { OrderEventSchema } from '../../../shared/events/orderEvent.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../../../shared/poll/errors.js';
import { DEFAULT_LEASE_TERMS, type LeaseTerms } from '../../../shared/poll/organizationLease.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import type { SnapshotChange, StateStore } from '../../../shared/store/stateStore.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { failOnCleanupFailure } from '../../support/cycleFixture.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';
import { startFailingProxy } from '../../support/failingProxy.js';
import { hostilePendingListing } from '../../support/hostileListing.js';
import { timeoutFor } from '../../support/loadedTimeouts.js';
import { closedPort } from '../../support/loopbackServer.js';
import { startRewritingProxy } from '../../support/rewritingProxy.js';

/**
 * Cases that write a lunch of orders, or a week's, over a dozen cycles: on DynamoDB Local, 800 to 1,011
 * round trips counted (2026-11-29); the rest make under 350, which the default timeout holds.
 */
const LUNCH_ON_DYNAMO = timeoutFor({ dynamoRoundTrips: 1_100 });
/** Three passes of the sweep and the cycles between: 349 round trips to DynamoDB Local counted. */
const SWEPT_THREE_TIMES = timeoutFor({ dynamoRoundTrips: 400 });

/**
 * Tuesday 10 March 2026, 06:00 in Lisbon (UTC+0 until the end of March): before any of the simulator's
 * establishments closes, so only the prep summary cases see summaries.
 */
const T0 = Date.UTC(2026, 2, 10, 6, 0, 0);
const TODAY = '2026-03-10';
const LAST_DAY = '2026-03-17';
const MINUTE = 60_000;
/** What the budget may use of the API's 50 a minute: all of it. */
const USABLE = 50;
/** The most cycles any case waits for the sweep to pass; a pass takes under ten here. */
const MAX_SWEEP_CYCLES = 60;

interface OpenedStore {
  store: StateStore;
  close(): Promise<void>;
}

const stores: Array<[string, (clock: () => number) => Promise<OpenedStore>]> = [
  [
    'SqliteStateStore',
    async (clock) => {
      const store = new SqliteStateStore({ path: ':memory:', clock });
      return { store, close: async () => store.close() };
    },
  ],
  [
    'DynamoStateStore',
    async (clock) => {
      const table = await createLocalStateTable();
      const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, clock });
      return { store, close: table.drop };
    },
  ],
];

/** `store`, with `before` run ahead of every commit: where another run sharing the store gets in first. */
function commitFirst(
  store: StateStore,
  before: (organizationId: string, change: SnapshotChange) => Promise<void>,
): StateStore {
  return {
    budgetCounters: store.budgetCounters,
    loadSnapshots: (organizationId) => store.loadSnapshots(organizationId),
    commitChange: async (organizationId, change) => {
      await before(organizationId, change);
      return store.commitChange(organizationId, change);
    },
    recordEvents: (organizationId, events) => store.recordEvents(organizationId, events),
    listEvents: (organizationId, sinceMs) => store.listEvents(organizationId, sinceMs),
    findEvents: (organizationId, query) => store.findEvents(organizationId, query),
    loadPollState: (organizationId) => store.loadPollState(organizationId),
    savePollState: (state, options) => store.savePollState(state, options),
    acquireLease: (organizationId, owner, nowMs, ttlMs, options) =>
      store.acquireLease(organizationId, owner, nowMs, ttlMs, options),
    leaseHolder: (organizationId) => store.leaseHolder(organizationId),
    releaseLease: (organizationId, owner) => store.releaseLease(organizationId, owner),
  };
}

describe.each(stores)('pollOrganization against the simulator, on %s', (storeName, openStore) => {
  /**
   * Cases of a thousand orders and more pin the planner, which is the same on any store; on DynamoDB Local
   * their snapshots' writes take minutes on a busy machine.
   */
  const atScale = it.runIf(storeName === 'SqliteStateStore');
  let now: number;
  const clock = () => now;
  let sim: RunningSimulator;
  let opened: OpenedStore;
  let store: StateStore;
  let client: AdminApiClient | undefined;
  let organization: PolledOrganization;

  async function openClient(baseUrl: string): Promise<AdminApiClient> {
    await client?.close();
    client = new AdminApiClient({
      baseUrl,
      organizationId: sim.organization.id,
      organizationName: sim.organization.name,
      token: sim.token,
      clock,
      // No waiting for budget: a cycle that finds no room for pending is deferred at once.
      budget: new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 }),
      retry: { maxAttempts: 1 },
    });
    return client;
  }

  /** One cycle at the current time, with the store given (the real one unless a case wraps it). */
  async function poll(
    options: {
      store?: StateStore;
      runId?: string;
      lease?: LeaseTerms;
      describeFailure?: (error: Error) => string;
      onCleanupFailure?: (failure: CycleCleanupError) => void;
    } = {},
  ): Promise<PollReport> {
    if (!client) throw new Error('no client');
    return pollOrganization(organization, {
      api: client,
      store: options.store ?? store,
      clock,
      runId: options.runId ?? 'test-run',
      baseUrl: sim.baseUrl,
      ...(options.lease ? { lease: options.lease } : {}),
      ...(options.describeFailure ? { describeFailure: options.describeFailure } : {}),
      onCleanupFailure: options.onCleanupFailure ?? failOnCleanupFailure,
    });
  }

  /** When the last cycle said the next is due (pollWhenDue). */
  let due: number;

  /** The next cycle when it is due, as a runner would poll it: never within 2 s of the last. */
  async function pollWhenDue(): Promise<PollReport> {
    now = Math.max(now + 2_000, due);
    const report = await poll();
    due = report.nextPollAt;
    return report;
  }

  /** A minute later, a cycle: the token's window has room again for a cycle's worth. */
  async function cycle(): Promise<PollReport> {
    now += MINUTE;
    return poll();
  }

  async function pollState() {
    const state = await store.loadPollState(organization.id);
    if (!state) throw new Error('no poll state saved');
    return state;
  }

  /**
   * Cycles until every terminal listing the organization sweeps has had a complete pass that began at or
   * after `since`: from then on, whatever only the sweep can see has been seen. Returns those cycles.
   */
  async function untilSwept(since: number): Promise<PollReport[]> {
    const swept = organization.statuses.filter((status) => TERMINAL_STATUSES.includes(status));
    const reports: PollReport[] = [];
    while (reports.length < MAX_SWEEP_CYCLES) {
      reports.push(await cycle());
      const { sweptAt } = (await pollState()).sweep;
      if (swept.every((status) => (sweptAt[status] ?? Number.NEGATIVE_INFINITY) >= since)) return reports;
    }
    throw new Error(`the sweep did not pass within ${MAX_SWEEP_CYCLES} cycles`);
  }

  /** The first cycle and the sweep's first pass: from then on every listing has been seen once. */
  async function baseline(): Promise<PollReport[]> {
    const first = await cycle();
    return [first, ...(await untilSwept(now))];
  }

  function eventsOf(reports: readonly PollReport[]): NotifierEvent[] {
    return reports.flatMap((report) => report.events);
  }

  function summary(events: readonly NotifierEvent[]): string[] {
    return events.map((event) => `${event.type} ${eventReference(event)}`).sort();
  }

  /** Pending orders in the window, oldest pickup first. */
  function pendingOrders() {
    return sim.world.listOrders(
      (o) => o.status.value === 'pending' && o.pickup_at >= TODAY && o.pickup_at <= LAST_DAY,
    );
  }

  function requestsSince(size: number) {
    return sim.requestLog.all().slice(size);
  }

  beforeEach(async () => {
    now = T0;
    due = T0;
    sim = await startSimulator({ seed: 21, scenario: false, initialOrders: 80, clock });
    opened = await openStore(clock);
    store = opened.store;
    await openClient(sim.baseUrl);
    organization = {
      id: sim.organization.id,
      name: sim.organization.name,
      timeZone: 'Europe/Lisbon',
      window: { daysBack: 0, daysAhead: 7 },
      statuses: ['pending', 'completed', 'canceled', 'archived'],
      emitExisting: false,
      pollIntervalSeconds: 10,
      // The config's shortest: a pass over the terminal listings takes a few cycles, not dozens.
      sweepIntervalSeconds: 60,
    };
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
    await opened.close();
    await sim.close();
  });

  describe('prep summaries', () => {
    const at = (hhmmss: string) => Date.parse(`${TODAY}T${hhmmss}Z`);

    it('records one complete summary after closing from the pending orders, then flags later changes after_closing', async () => {
      const [kitchen] = sim.world.establishments();
      if (!kitchen) throw new Error('no establishment');
      sim.world.setOrderClosingTime(kitchen.uuid, '06:05:00');
      const ofKitchenToday = (order: { establishment: { uuid: string }; pickup_at: string }) =>
        order.establishment.uuid === kitchen.uuid && order.pickup_at === TODAY;
      for (let i = 0; i < 3; i += 1) sim.world.addOrder({ establishment: kitchen.uuid, pickupDate: TODAY });

      now = at('06:01:00');
      const before = await poll();
      expect(before.events.filter((event) => event.type === 'establishment.prep_summary')).toEqual([]);
      const early = sim.world.listOrders((o) => ofKitchenToday(o) && o.status.value === 'pending')[0];
      if (!early) throw new Error('no pending order');
      sim.world.setStatus(early.uuid, 'canceled');

      now = at('06:05:30');
      const closing = await poll();
      const summaries = closing.events.filter((event) => event.type === 'establishment.prep_summary');
      expect(summaries).toHaveLength(1);
      const pending = sim.world.listOrders((o) => ofKitchenToday(o) && o.status.value === 'pending');
      const quantities = new Map<string, number>();
      for (const order of pending)
        for (const item of order.items)
          quantities.set(item.sku, (quantities.get(item.sku) ?? 0) + item.quantity);
      const summary = summaries[0];
      if (summary?.type !== 'establishment.prep_summary') throw new Error('no summary');
      expect(summary.data).toMatchObject({
        establishment: { uuid: kitchen.uuid, name: kitchen.name },
        pickup_date: TODAY,
        closed_at: `${TODAY}T06:05:00+00:00`,
        orders: pending.length,
        canceled_before_closing: sim.world.listOrders(
          (o) => ofKitchenToday(o) && o.canceled_at !== null && Date.parse(o.canceled_at) < at('06:05:00'),
        ).length,
        complete: true,
      });
      expect(new Map(summary.data.items.map((item) => [item.sku, item.quantity]))).toEqual(quantities);
      expect((await pollState()).prepSummaries).toEqual({
        [`${kitchen.uuid.toLowerCase()}|${TODAY}`]: {
          eventId: summary.id,
          closedAt: at('06:05:00'),
          complete: true,
          // What the kitchen heard, for the prep_changed events that may follow.
          items: Object.fromEntries(
            summary.data.items.map(({ sku, name, quantity }) => [sku, { name, quantity }]),
          ),
        },
      });

      const late = pending[0];
      if (!late) throw new Error('no pending order left');
      sim.world.setStatus(late.uuid, 'canceled');
      now = at('06:06:30');
      const after = await poll();
      expect(
        after.events.map((event) => [
          event.type,
          'order' in event.data ? event.data.after_closing : undefined,
        ]),
      ).toEqual([
        ['order.canceled', true],
        // And what it takes from the kitchen's count (pinned in the next case).
        ['establishment.prep_changed', undefined],
      ]);
      expect(
        (await store.listEvents(organization.id)).filter((stored) => stored.event.id === summary.id),
      ).toHaveLength(1);
    });

    it('gathers a lasagne added and an order canceled after the summary into one prep_changed, recorded once', async () => {
      const [kitchen] = sim.world.establishments();
      const [lasagne] = sim.world.products();
      if (!kitchen || !lasagne) throw new Error('no establishment or product');
      sim.world.setOrderClosingTime(kitchen.uuid, '06:05:00');
      for (let i = 0; i < 3; i += 1) sim.world.addOrder({ establishment: kitchen.uuid, pickupDate: TODAY });
      now = at('06:01:00');
      await poll();
      now = at('06:05:30');
      const summary = (await poll()).events.find((event) => event.type === 'establishment.prep_summary');
      if (summary?.type !== 'establishment.prep_summary') throw new Error('no summary');

      const [edited, gone] = sim.world.pendingOrders(kitchen.uuid, TODAY);
      if (!edited || !gone) throw new Error('fewer than two pending orders');
      const line = edited.items.find((item) => item.sku === lasagne.sku);
      if (line) sim.world.setItemQuantity(edited.uuid, line.uuid, line.quantity + 1);
      else sim.world.addItem(edited.uuid, { sku: lasagne.sku });
      sim.world.setStatus(gone.uuid, 'canceled');
      now = at('06:06:30');
      const after = await poll();

      // The kitchen heard the summary's figures; now one lasagne more, and the canceled order's items less.
      const delta = new Map<string, { name: string; units: number }>([
        [lasagne.sku, { name: lasagne.name, units: 1 }],
      ]);
      for (const { sku, name, quantity } of gone.items) {
        delta.set(sku, {
          name: delta.get(sku)?.name ?? name,
          units: (delta.get(sku)?.units ?? 0) - quantity,
        });
      }
      const heard = new Map(summary.data.items.map((item) => [item.sku, item.quantity]));
      const items = [...delta.entries()]
        .filter(([, { units }]) => units !== 0)
        .map(([sku, { name, units }]) => ({
          sku,
          name,
          from: heard.get(sku) ?? 0,
          to: (heard.get(sku) ?? 0) + units,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.sku < b.sku ? -1 : 1));
      const changed = after.events.filter((event) => event.type === 'establishment.prep_changed');
      expect(changed).toHaveLength(1);
      expect(changed[0]?.data).toEqual({
        organization: { id: organization.id, name: organization.name },
        establishment: { uuid: kitchen.uuid, name: kitchen.name },
        pickup_date: TODAY,
        summary_id: summary.id,
        summary_closed_at: `${TODAY}T06:05:00+00:00`,
        items,
        orders: [
          { uuid: edited.uuid, reference: edited.reference, change: 'updated' },
          { uuid: gone.uuid, reference: gone.reference, change: 'canceled' },
        ].sort((a, b) => (a.reference < b.reference ? -1 : 1)),
      });
      expect(
        after.events
          .filter((event) => event.type !== 'establishment.prep_changed')
          .map((event) => event.type)
          .sort(),
      ).toEqual(['order.canceled', 'order.updated']);

      // Repeated, the cycle finds nothing new: the one prep_changed stays the only one.
      now = at('06:07:30');
      const again = await poll();
      expect(again.events).toEqual([]);
      const logged = (await store.listEvents(organization.id)).filter(
        (stored) => stored.event.type === 'establishment.prep_changed',
      );
      expect(logged.map((stored) => stored.event.id)).toEqual([changed[0]?.id]);
      // The next one starts from what this one said.
      const kept = (await pollState()).prepSummaries[`${kitchen.uuid.toLowerCase()}|${TODAY}`]?.items ?? {};
      for (const { sku, to } of items) expect(kept[sku]?.quantity ?? 0).toBe(to);
    });

    it('records the same summary id again after a crash before the state was saved, refused as a duplicate', async () => {
      const [kitchen] = sim.world.establishments();
      if (!kitchen) throw new Error('no establishment');
      sim.world.setOrderClosingTime(kitchen.uuid, '06:05:00');
      now = at('06:01:00');
      await poll();
      now = at('06:05:30');
      // The first run dies after recording, before saving its poll state.
      const crashing: StateStore = {
        ...commitFirst(store, async () => {}),
        savePollState: async () => {
          throw new Error('killed');
        },
      };
      await expect(poll({ store: crashing })).rejects.toThrow('killed');
      await store.releaseLease(organization.id, 'test-run');
      now = at('06:06:00');
      const again = await poll();
      expect(again.events.filter((event) => event.type === 'establishment.prep_summary')).toEqual([]);
      const logged = (await store.listEvents(organization.id)).filter(
        (stored) => stored.event.type === 'establishment.prep_summary',
      );
      expect(logged).toHaveLength(1);
      expect(Object.values((await pollState()).prepSummaries).map((entry) => entry.eventId)).toEqual([
        logged[0]?.event.id,
      ]);
    });
  });

  it('records a silent baseline: pending on the first cycle, each terminal listing as the sweep reaches it', async () => {
    // Completed orders over every date of the window: the baseline pass over completed reads each date whole.
    for (let i = 0; i < 30; i += 1)
      sim.world.addOrder({ status: 'completed', pickupDate: addDays(TODAY, i % 8) });
    const before = sim.requestLog.size;

    const first = await cycle();
    expect(first).toMatchObject({ outcome: 'polled', ok: true, events: [], failures: [] });
    const pendingPages = Math.ceil(pendingOrders().length / 25);
    expect(first.requestsFor).toEqual({ detect: pendingPages, resolve: 0, sweep: 0, establishments: 1 });
    // Pending, and the establishments the cache is filled with (once, not counted as a walk).
    const firstRequests = requestsSince(before);
    expect(firstRequests.filter((request) => request.query.status !== 'pending')).toEqual([
      expect.objectContaining({ path: expect.stringMatching(/\/establishments$/) }),
    ]);
    expect((await store.loadSnapshots(organization.id)).size).toBe(pendingOrders().length);

    const rest = await untilSwept(now);
    expect(eventsOf(rest)).toEqual([]);
    expect(rest.every((report) => report.ok)).toBe(true);
    const inWindow = sim.world.listOrders((o) => o.pickup_at >= TODAY && o.pickup_at <= LAST_DAY);
    expect((await store.loadSnapshots(organization.id)).size).toBe(inWindow.length);
    // The first pass over completed is its baseline: a pickup date at a time, each whole and consistent,
    // one walk a date, never the whole listing in one cycle.
    const completed = inWindow.filter((o) => o.status.value === 'completed').length;
    expect(completed).toBeGreaterThan(25);
    const completedPasses = rest
      .flatMap((report) => report.listings)
      .filter((listing) => listing.purpose === 'sweep' && listing.status === 'completed')
      .slice(0, 8);
    expect(completedPasses.every((listing) => listing.trustworthy)).toBe(true);
    expect(completedPasses.map((listing) => listing.key)).toEqual(
      Array.from({ length: 8 }, (_, i) => `completed[${addDays(TODAY, i)}..${addDays(TODAY, i)}]`),
    );
    expect(completedPasses.reduce((sum, listing) => sum + listing.orders, 0)).toBe(completed);
  });

  it('announces an order moved from today to Thursday, and back, once each time, whichever listing sees it first', {
    timeout: LUNCH_ON_DYNAMO,
  }, async () => {
    // Pending on every day of the window, so that today's listing is shorter than the window's: today first.
    for (let i = 0; i < 60; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, 1 + (i % 7)) });
    await baseline();
    const moved = pendingOrders().find((order) => order.pickup_at === TODAY);
    if (!moved) throw new Error('no order for today');
    const walkedOn = (report: PollReport, date: string) =>
      report.listings.some(
        (listing) =>
          listing.purpose === 'detect' &&
          listing.startDate <= date &&
          date <= listing.endDate &&
          listing.trustworthy,
      );
    // Most changes are today's: the rest of the window is walked a date or so at a time, each when its
    // period is up. The order moves to a date of the part just walked, the last to come round again.
    for (let i = 0; i < 6; i += 1) sim.world.addOrder({ pickupDate: TODAY });
    expect((await pollWhenDue()).events.map((event) => event.type)).toEqual(Array(6).fill('order.created'));
    const rest = Array.from({ length: 7 }, (_, i) => addDays(TODAY, i + 1));
    const walksRest = (report: PollReport) => rest.some((date) => walkedOn(report, date));
    let parted = await pollWhenDue();
    for (let i = 0; i < 60 && !walksRest(parted); i += 1) parted = await pollWhenDue();
    expect(rest.filter((date) => walkedOn(parted, date)).length).toBeLessThan(rest.length);
    const thursday = rest.find((date) => walkedOn(parted, date));
    if (!thursday) throw new Error('no part of the rest walked');
    sim.world.reschedule(moved.uuid, { pickupDate: thursday });
    // Each cycle reads today's listing, and now and then a part of the rest: until one walks Thursday, the
    // order is gone from today's and in no other status. It waits, neither missing nor news.
    const cycles: PollReport[] = [];
    while (!cycles.some((report) => walkedOn(report, thursday))) {
      if (cycles.length === 60) throw new Error('no cycle walked Thursday');
      cycles.push(await pollWhenDue());
    }
    expect(cycles.every((report) => walkedOn(report, TODAY))).toBe(true);
    const waiting = cycles.slice(0, -1);
    expect(waiting.length).toBeGreaterThanOrEqual(1);
    expect(eventsOf(waiting)).toEqual([]);
    expect(eventsOf(cycles.slice(-1)).map((event) => event.type)).toEqual(['order.rescheduled']);
    expect((await store.loadSnapshots(organization.id)).get(moved.uuid)?.missingSince).toBeNull();
    // Back to today: today's listing, walked every cycle, sees it first, and nothing later says more.
    sim.world.reschedule(moved.uuid, { pickupDate: TODAY });
    const back = await pollWhenDue();
    expect(back.events.map((event) => event.type)).toEqual(['order.rescheduled']);
    expect(eventsOf([await pollWhenDue(), await pollWhenDue(), await pollWhenDue()])).toEqual([]);
  });

  it("checks today's listing where it changed: a lunch canceled on page 1 is told at once from fewer pages than a walk, a note on a page unread by the next whole walk, each once", {
    timeout: LUNCH_ON_DYNAMO,
  }, async () => {
    for (let i = 0; i < 60; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, 1 + (i % 7)) });
    for (let i = 0; i < 80; i += 1) sim.world.addOrder({ pickupDate: TODAY });
    await baseline();
    const todays = `pending[${TODAY}..${TODAY}]`;
    const listedToday = () =>
      sim.world.listOrders((o) => o.status.value === 'pending' && o.pickup_at === TODAY);
    const pages = Math.ceil(listedToday().length / 25);
    expect(pages).toBeGreaterThanOrEqual(4);
    const readToday = (report: PollReport) => report.listings.find((listing) => listing.key === todays);
    // Quiet: the check reads the last page, and carries the rest.
    let quiet = await pollWhenDue();
    for (let i = 0; i < 5 && readToday(quiet)?.pages === pages; i += 1) quiet = await pollWhenDue();
    expect(readToday(quiet)).toMatchObject({ pages: 1, trustworthy: true });
    expect(quiet.events).toEqual([]);

    const lunch = listedToday()[3];
    if (!lunch) throw new Error('no order on page 1');
    sim.world.setStatus(lunch.uuid, 'canceled');
    const canceled = await pollWhenDue();
    expect(summary(canceled.events)).toEqual([`order.canceled ${lunch.reference}`]);
    expect(readToday(canceled)?.pages).toBeLessThan(pages);

    const noted = listedToday()[30];
    if (!noted) throw new Error('no order on page 2');
    sim.world.setNotes(noted.uuid, 'No nuts: allergy');
    const notedAt = now;
    const after: PollReport[] = [];
    while (!after.some((report) => report.events.length > 0)) {
      if (after.length === 60) throw new Error('the note was never seen');
      after.push(await pollWhenDue());
    }
    const seen = after.at(-1) as PollReport;
    expect(summary(seen.events)).toEqual([`order.updated ${noted.reference}`]);
    // Seen by a whole walk, within the longest period (90 s) and a cycle.
    expect(readToday(seen)?.pages).toBe(pages);
    expect(now - notedAt).toBeLessThanOrEqual(90_000 + 10_000);
    expect(eventsOf([await pollWhenDue(), await pollWhenDue(), await pollWhenDue()])).toEqual([]);
  });

  it('checks a date of the rest between its whole walks: a new order for Thursday is told from the last page alone, once', {
    timeout: LUNCH_ON_DYNAMO,
  }, async () => {
    const thursday = addDays(TODAY, 3);
    for (let i = 0; i < 45; i += 1) sim.world.addOrder({ pickupDate: thursday });
    for (let i = 0; i < 80; i += 1) sim.world.addOrder({ pickupDate: TODAY });
    await baseline();
    // The part of the rest that holds Thursday, whatever dates beside it: its reads, walks or checks.
    const readThursday = (report: PollReport) =>
      report.listings.find(
        (listing) =>
          listing.purpose === 'detect' && listing.startDate <= thursday && listing.endDate >= thursday,
      );
    const nextRead = async () => {
      const reports: PollReport[] = [];
      while (!reports.some((report) => readThursday(report) !== undefined)) {
        if (reports.length === 40) throw new Error('Thursday was never read again');
        reports.push(await pollWhenDue());
      }
      return { reports, read: readThursday(reports.at(-1) as PollReport) };
    };
    // Right after a whole walk, the next read comes at the rest's period, well before the next whole walk.
    let last = await nextRead();
    for (let i = 0; i < 5 && (last.read?.pages ?? 0) < 3; i += 1) last = await nextRead();
    const wholePages = last.read?.pages ?? 0;
    expect(wholePages).toBeGreaterThanOrEqual(3);

    const late = sim.world.addOrder({ pickupDate: thursday });
    const seen = await nextRead();
    expect(summary(eventsOf(seen.reports))).toEqual([`order.created ${late.reference}`]);
    expect(seen.read).toMatchObject({ pages: 1, trustworthy: true });
    expect(eventsOf([await pollWhenDue(), await pollWhenDue(), await pollWhenDue()])).toEqual([]);
  });

  it('emits exactly the transitions that happened, each once, then nothing on quiet cycles', {
    timeout: SWEPT_THREE_TIMES,
  }, async () => {
    await baseline();
    const [a, b, c, d] = pendingOrders();
    if (!a || !b || !c || !d) throw new Error('fixture has too few pending orders');
    sim.world.setStatus(a.uuid, 'completed');
    sim.world.setStatus(b.uuid, 'completed');
    sim.world.setStatus(c.uuid, 'canceled');
    sim.world.setStatus(d.uuid, 'completed');
    sim.world.setStatus(d.uuid, 'archived');
    const created = sim.world.addOrder({ pickupDate: addDays(TODAY, 2) });
    const archived = sim.world.listOrders(
      (o) => o.status.value === 'completed' && o.pickup_at >= TODAY && o.pickup_at <= LAST_DAY,
    )[0];
    if (!archived) throw new Error('fixture has no completed order');
    sim.world.setStatus(archived.uuid, 'archived');
    const changedAt = now;

    // What left pending is looked up at once; the completed order archived is the sweep's to see.
    const next = await cycle();
    expect(next.ok).toBe(true);
    expect(next.vanished.map((order) => order.uuid).sort()).toEqual([a.uuid, b.uuid, c.uuid, d.uuid].sort());
    expect(summary(next.events)).toEqual(
      expect.arrayContaining([
        `order.completed ${a.reference}`,
        `order.completed ${b.reference}`,
        `order.canceled ${c.reference}`,
        `order.completed ${d.reference}`,
        `order.archived ${d.reference}`,
        `order.created ${created.reference}`,
      ]),
    );
    const events = [...next.events, ...eventsOf(await untilSwept(changedAt))];
    expect(summary(events)).toEqual(
      [
        `order.completed ${a.reference}`,
        `order.completed ${b.reference}`,
        `order.canceled ${c.reference}`,
        `order.completed ${d.reference}`,
        `order.archived ${d.reference}`,
        `order.created ${created.reference}`,
        `order.archived ${archived.reference}`,
      ].sort(),
    );
    for (const event of events) expect(OrderEventSchema.safeParse(event).success).toBe(true);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect((await store.listEvents(organization.id)).map(({ event }) => event.id).sort()).toEqual(
      events.map((event) => event.id).sort(),
    );

    const quiet = await cycle();
    expect(quiet).toMatchObject({ ok: true, events: [], vanished: [] });
    // Nor does a whole further pass of the sweep find anything to say.
    expect(eventsOf(await untilSwept(now))).toEqual([]);
  });

  it('dates each new transition at the source for the detection latency', async () => {
    // Pending's baseline: its orders are known, and an order created on its dates is news.
    await cycle();
    const [pending] = pendingOrders();
    if (!pending) throw new Error('fixture has no pending order');
    const changedAt = now;
    sim.world.setStatus(pending.uuid, 'canceled');
    const created = sim.world.addOrder({ pickupDate: addDays(TODAY, 1) });

    const next = await cycle();
    expect(summary(next.events)).toEqual(
      [`order.canceled ${pending.reference}`, `order.created ${created.reference}`].sort(),
    );
    // Detected by the cycle a minute after the change: the event's time less its source time.
    for (const event of next.events) {
      expect(Date.parse(event.time) - (next.sourceTimes[event.id] ?? Number.NaN)).toBe(MINUTE);
    }
    expect(Object.values(next.sourceTimes)).toEqual([changedAt, changedAt]);
  });

  it('gives no detection latency for orders announced only because emitExisting asks', async () => {
    organization = { ...organization, emitExisting: true };
    const first = await cycle();
    expect(first.events.length).toBeGreaterThan(0);
    expect(first.sourceTimes).toEqual({});
  });

  it('resolves a vanished pending order with narrow look-ups when no budget is left for the sweep', async () => {
    await baseline();
    const [order] = pendingOrders();
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'canceled');
    const pendingPages = Math.ceil(pendingOrders().length / 25);

    now += 2 * MINUTE;
    // Another user of the token leaves room for pending and two look-ups only: completed, then canceled.
    const other = new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 });
    const free = await other.remaining();
    await other.reserve(free - pendingPages - 2, free - pendingPages - 2);
    expect(await other.remaining()).toBe(pendingPages + 2);
    const before = sim.requestLog.size;

    const report = await poll();
    expect(report.ok).toBe(true);
    expect(summary(report.events)).toEqual([`order.canceled ${order.reference}`]);
    expect(report.vanished).toEqual([
      {
        uuid: order.uuid,
        pickupDate: order.pickup_at,
        status: 'pending',
        establishment: order.establishment.uuid,
        paymentMethod: order.payment_method_type.value,
      },
    ]);
    expect(report.requestsFor).toEqual({ detect: pendingPages, resolve: 2, sweep: 0 });
    expect(report.requests).toBe(pendingPages + 2);
    expect(report.budgetRemaining).toBe(0);
    const lookUps = requestsSince(before).filter((request) => request.query.status !== 'pending');
    expect(lookUps.map((request) => request.query)).toEqual(
      ['completed', 'canceled'].map((status) =>
        expect.objectContaining({
          status,
          start_date: order.pickup_at,
          end_date: order.pickup_at,
          establishment: order.establishment.uuid,
          // Among the orders paid as it was: a third to a half of the listing.
          payment_method_type: order.payment_method_type.value,
        }),
      ),
    );
    expect((await store.loadSnapshots(organization.id)).get(order.uuid)?.status).toBe('canceled');
  });

  it("looks first for an order whose look-up a full window left, walking today's listing alone with it, the rest's part next", {
    timeout: LUNCH_ON_DYNAMO,
  }, async () => {
    // Pending on every day of the window, so that today's listing is shorter than the window's: today first.
    for (let i = 0; i < 60; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, 1 + (i % 7)) });
    await baseline();
    const todays = `pending[${TODAY}..${TODAY}]`;
    const quiet = await cycle();
    // Today's listing first, and the part of the rest due beside it (a cycle's interval on, all of it is).
    expect(quiet.listings[0]?.key).toBe(todays);
    expect(quiet.listings.slice(1).every((listing) => listing.startDate > TODAY)).toBe(true);
    expect(quiet.listings.length).toBeGreaterThan(1);
    // Today's pages, whole: what a cycle must be able to pay for before it reads anything.
    const todayPages = Math.ceil(pendingOrders().filter((order) => order.pickup_at === TODAY).length / 25);
    expect(todayPages).toBe(2);
    const other = new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 });
    /** Another user of the token leaves room for `room` requests only. */
    const leaveRoom = async (room: number) => {
      const free = await other.remaining();
      expect(free).toBeGreaterThanOrEqual(room);
      if (free > room) await other.reserve(free - room, free - room);
      expect(await other.remaining()).toBe(room);
    };
    const canceled = pendingOrders().find((order) => order.pickup_at === TODAY);
    if (!canceled) throw new Error('no order for today');
    sim.world.setStatus(canceled.uuid, 'canceled');

    // Room for today's pages alone: the order is seen gone (the check reads both pages: it left page 1),
    // and its look-up finds no room.
    now += MINUTE;
    await leaveRoom(todayPages);
    const full = await poll();
    expect(full.listings.map((listing) => listing.key)).toEqual([todays]);
    expect(full.requestsFor).toEqual({ detect: todayPages, resolve: 0, sweep: 0 });
    expect(full.events).toEqual([]);
    expect(Object.keys((await pollState()).lookups.searched)).toEqual([canceled.uuid]);

    // Room for today's pages and the look-up owed, not one more: the look-up goes first, with today's
    // listing, the rest's part next. (A minute and the budget's hold on: the first room is free again.)
    now += MINUTE + 5_000;
    await leaveRoom(todayPages + 1);
    const next = await poll();
    expect(next.listings.filter((listing) => listing.purpose === 'detect').map((l) => l.key)).toEqual([
      todays,
    ]);
    expect(summary(next.events)).toEqual([`order.canceled ${canceled.reference}`]);
    expect((await pollState()).lookups.searched).toEqual({});
    // And the next cycle walks the rest, or the part of it due, again beside today's.
    const after = await cycle();
    const rest = after.listings.filter((listing) => listing.purpose === 'detect' && listing.key !== todays);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((listing) => listing.startDate > TODAY && listing.trustworthy)).toBe(true);
  });

  it('goes on polling once more look-ups are owed than the window holds, and tells every one of them', {
    // The sweep's first pass, then a lunch of 65 orders, on DynamoDB Local too.
    timeout: LUNCH_ON_DYNAMO,
  }, async () => {
    // Pending on every day of the window, so that today first cuts it; and a lunch of 60 more orders today.
    for (let i = 0; i < 60; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, 1 + (i % 7)) });
    for (let i = 0; i < 60; i += 1) sim.world.addOrder({ pickupDate: TODAY });
    await baseline();
    // The kitchen marks the whole lunch done at once, while the completed listing answers 500.
    const served = pendingOrders().filter((order) => order.pickup_at === TODAY);
    expect(served.length).toBeGreaterThan(USABLE);
    for (const order of served) sim.world.setStatus(order.uuid, 'completed');
    const proxy = await startFailingProxy(
      sim.baseUrl,
      (url) => url.searchParams.get('status') === 'completed',
    );
    try {
      await openClient(proxy.baseUrl);
      const failing = await cycle();
      expect(failing).toMatchObject({ outcome: 'polled', ok: false, events: [] });
    } finally {
      await proxy.close();
    }
    // Every order is owed a look-up in completed: more than the window holds.
    expect(Object.keys((await pollState()).lookups.searched)).toHaveLength(served.length);

    // The listing answers again, and the window has emptied of the failing cycle's look-ups: the cycles
    // that follow poll, and tell every order served, once.
    await openClient(sim.baseUrl);
    now += MINUTE;
    const after: PollReport[] = [];
    for (let i = 0; i < 3; i += 1) after.push(await cycle());
    expect(after.map((report) => report.outcome)).toEqual(['polled', 'polled', 'polled']);
    expect(summary(eventsOf(after))).toEqual(
      served.map((order) => `order.completed ${order.reference}`).sort(),
    );
    expect((await pollState()).lookups.searched).toEqual({});
  });

  atScale(
    'walks a window of more pending pages than a minute holds a part a cycle: a silent baseline, then news',
    async () => {
      // 63 pages over the week, ordered before the morning: a cycle that had to reserve them all could
      // never start. Polling begins an hour later, when every order is older than the clock-skew allowance
      // that would tell a recent one on a date walked for the first time as news.
      for (let i = 0; i < 1500; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, i % 8) });
      now += 60 * MINUTE;
      const baselined: PollReport[] = [];
      const week = Array.from({ length: 8 }, (_, i) => addDays(TODAY, i));
      while (baselined.length < 8) {
        // A part of half a minute's requests stays in the window a minute after its last reached the
        // server: cycles come as far apart as their pace would space them, not a bare minute.
        now += 10_000;
        baselined.push(await cycle());
        const covered = Object.keys((await pollState()).coverage.pendingCoveredAt);
        if (week.every((date) => covered.includes(date))) break;
      }
      expect(baselined.length).toBeLessThan(8);
      expect(baselined.map((report) => [report.outcome, report.ok])).toEqual(
        baselined.map(() => ['polled', true]),
      );
      expect(eventsOf(baselined)).toEqual([]);
      for (const report of baselined) expect(report.requests).toBeLessThanOrEqual(USABLE);

      // A new order at the end of the week is told once its part comes round again.
      const added = sim.world.addOrder({ pickupDate: LAST_DAY });
      const later: PollReport[] = [];
      for (let i = 0; i < 6; i += 1) later.push(await cycle());
      expect(summary(eventsOf(later))).toEqual([`order.created ${added.reference}`]);
    },
  );

  atScale(
    'tells a date too large for any walk to finish, reads only its first page, and watches the rest of the week',
    async () => {
      // 1,300 orders for one day, in one listing: 53 pages, more than the token may ask in a minute.
      const crowded = addDays(TODAY, 2);
      for (let i = 0; i < 1300; i += 1) sim.world.addOrder({ pickupDate: crowded });
      now += 60 * MINUTE;
      const reports: PollReport[] = [];
      for (let i = 0; i < 4; i += 1) reports.push(await cycle());
      expect(reports.at(-1)).toMatchObject({
        outcome: 'polled',
        ok: false,
        failures: [
          `${sim.organization.name}: listing pending[${crowded}..${crowded}] holds 53 pages, more than the 50 requests a minute the token may make, so no walk of it can finish and its orders are not watched: list the organization's establishments apart ("establishments" in its config) to make each listing smaller`,
        ],
      });
      expect(eventsOf(reports)).toEqual([]);
      // Its first page only, read each cycle to see it shrink.
      const probe = reports.at(-1)?.listings.find((listing) => listing.startDate === crowded);
      expect(probe).toMatchObject({ pages: 1, trustworthy: false });
      const week = Array.from({ length: 8 }, (_, i) => addDays(TODAY, i));
      const covered = Object.keys((await pollState()).coverage.pendingCoveredAt).sort();
      expect(covered).toEqual(week.filter((date) => date !== crowded));

      // The rest of the week is watched: an order for its last day is told.
      const added = sim.world.addOrder({ pickupDate: LAST_DAY });
      const later: PollReport[] = [];
      for (let i = 0; i < 3; i += 1) later.push(await cycle());
      expect(summary(eventsOf(later))).toEqual([`order.created ${added.reference}`]);
      expect((await pollState()).health.consecutiveFailures).toBeGreaterThan(0);
    },
  );

  atScale(
    'tells a date once it grows too large for any walk, and watches it again once it shrinks',
    async () => {
      const crowded = addDays(TODAY, 2);
      for (let i = 0; i < 1000; i += 1) sim.world.addOrder({ pickupDate: crowded });
      for (let i = 0; i < 300; i += 1) sim.world.addOrder({ pickupDate: addDays(TODAY, i % 8) });
      now += 60 * MINUTE;
      const week = Array.from({ length: 8 }, (_, i) => addDays(TODAY, i));
      const coveredAt = async () => (await pollState()).coverage.pendingCoveredAt;
      for (let i = 0; i < 10; i += 1) {
        await cycle();
        if (Object.keys(await coveredAt()).length === week.length) break;
      }
      expect(Object.keys(await coveredAt()).sort()).toEqual(week);

      // 300 more for that day: 1,330 orders, 54 pages. Its first page says so; the count we hold does not.
      for (let i = 0; i < 300; i += 1) sim.world.addOrder({ pickupDate: crowded });
      const grown: PollReport[] = [];
      for (let i = 0; i < 4; i += 1) grown.push(await cycle());
      const line = `${sim.organization.name}: listing pending[${crowded}..${crowded}] holds 54 pages`;
      expect(grown.at(-1)?.failures.map((failure) => failure.slice(0, line.length))).toEqual([line]);
      const added = sim.world.addOrder({ pickupDate: LAST_DAY });
      const watched: PollReport[] = [];
      for (let i = 0; i < 3; i += 1) watched.push(await cycle());
      expect(summary(eventsOf(watched))).toEqual([`order.created ${added.reference}`]);

      // 400 of that day's orders move to the day after: 38 pages again, read whole once more.
      const moved = sim.world
        .listOrders((order) => order.pickup_at === crowded && order.status.value === 'pending')
        .slice(0, 400);
      for (const order of moved) sim.world.setPickupDate(order.uuid, addDays(crowded, 1));
      const before = (await coveredAt())[crowded] ?? 0;
      const shrunk: PollReport[] = [];
      for (let i = 0; i < 6; i += 1) shrunk.push(await cycle());
      expect(shrunk.at(-1)?.failures).toEqual([]);
      expect((await coveredAt())[crowded]).toBeGreaterThan(before);
    },
  );

  atScale(
    'skips, and tells once, a baseline date too large to read whole, and sweeps every listing after it',
    async () => {
      // 1,200 orders completed today, in one listing: 49 pages, more than the token may ask in a minute.
      for (let i = 0; i < 1200; i += 1) sim.world.addOrder({ pickupDate: TODAY, status: 'completed' });
      now += 60 * MINUTE;
      const since = now;
      const reports = await untilSwept(since);
      const told = reports.flatMap((report) => report.failures);
      expect(told).toEqual([
        `${sim.organization.name}: listing completed[${TODAY}..${TODAY}] holds 49 pages, more than the 46 of the token's 50 requests a minute that pending's pages and look-ups leave, so the baseline skips it: the passes after it read it page by page, and an order archived from it before then may go untold: list the organization's establishments apart ("establishments" in its config) to make each listing smaller`,
      ]);
      expect(eventsOf(reports)).toEqual([]);
      // The next pass over completed reads today's orders, a few pages a cycle, without a failure.
      const after = await untilSwept(now + 1);
      expect(after.flatMap((report) => report.failures)).toEqual([]);
      const sweptToday = after.flatMap((report) =>
        report.listings.filter((listing) => listing.purpose === 'sweep' && listing.status === 'completed'),
      );
      expect(sweptToday.reduce((pages, listing) => pages + listing.pages, 0)).toBeGreaterThanOrEqual(49);
    },
  );

  it('skips the cycle without a request while another run holds the lease', async () => {
    await cycle();
    const stateBefore = await pollState();
    now += MINUTE;
    expect(await store.acquireLease(organization.id, 'another-run', now, 5 * MINUTE)).toBe(true);
    const before = sim.requestLog.size;

    const skipped = await poll();
    expect(skipped).toMatchObject({
      outcome: 'skipped',
      leaseHolder: 'another-run',
      requests: 0,
      events: [],
      failures: [],
    });
    expect(skipped.reason).toBe('another run, another-run, is polling this organization');
    expect(sim.requestLog.size).toBe(before);
    expect(await pollState()).toEqual(stateBefore);

    // Once the other run gives it back, the next cycle polls; and its own lease goes back with its state.
    await store.releaseLease(organization.id, 'another-run');
    now += MINUTE;
    expect((await poll()).outcome).toBe('polled');
    expect(await store.acquireLease(organization.id, 'another-run', now, 5 * MINUTE)).toBe(true);
  });

  it('takes over at once the lease of a run known to have ended, and says whose it was', async () => {
    await cycle();
    now += MINUTE;
    // A run killed mid-cycle: its lease would hold off everyone else for five more minutes.
    expect(await store.acquireLease(organization.id, 'killed-run', now, 5 * MINUTE)).toBe(true);
    now += MINUTE;
    const isGone = (owner: string) => owner === 'killed-run';

    const report = await poll({ lease: { ...DEFAULT_LEASE_TERMS, isGone } });
    expect(report).toMatchObject({ outcome: 'polled', ok: true, leaseTakenOverFrom: 'killed-run' });
    expect(report.requests).toBeGreaterThan(0);
    expect((await pollState()).health.lastSuccessAt).toBe(now);
    // Given back with the state, as any lease held for the cycle.
    expect(await store.leaseHolder(organization.id)).toBeUndefined();
  });

  it('keeps a lease held for the run between cycles, so another run is skipped until it is given back', async () => {
    const keeping: LeaseTerms = { ttlMs: 5 * MINUTE, heldFor: 'run' };
    now += MINUTE;
    const first = await poll({ runId: 'run-a', lease: keeping });
    expect(first.outcome).toBe('polled');
    expect(await store.leaseHolder(organization.id)).toEqual({
      owner: 'run-a',
      until: first.nextPollAt + 5 * MINUTE,
    });

    now += MINUTE;
    expect(await poll({ runId: 'run-b' })).toMatchObject({ outcome: 'skipped', leaseHolder: 'run-a' });
    // The run's own next cycle renews it.
    expect((await poll({ runId: 'run-a', lease: keeping })).outcome).toBe('polled');
    now += MINUTE;
    expect((await poll({ runId: 'run-b' })).outcome).toBe('skipped');

    await store.releaseLease(organization.id, 'run-a');
    expect((await poll({ runId: 'run-b' })).outcome).toBe('polled');
  });

  it('defers the cycle, not failing it, while the token’s window is full, and catches up after', async () => {
    await cycle();
    const { lastSuccessAt } = (await pollState()).health;
    expect(lastSuccessAt).toBe(now);
    const [order] = pendingOrders();
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'completed');

    now += MINUTE;
    // Another user of the token (another organization on it, say) took every request the window has.
    const other = new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 });
    await other.reserve(1, USABLE);
    expect(await other.remaining()).toBe(0);
    const before = sim.requestLog.size;

    const deferred = await poll();
    expect(deferred).toMatchObject({ outcome: 'deferred', ok: true, requests: 0, events: [], failures: [] });
    expect(sim.requestLog.size).toBe(before);
    expect(deferred.nextPollAt).toBeGreaterThan(now);
    expect(deferred.nextPollAt).toBeLessThanOrEqual(now + 5_000);
    const state = await pollState();
    expect(state).toMatchObject({
      health: { lastSuccessAt, lastAttemptAt: now, consecutiveFailures: 0, lastError: null },
      pace: { nextPollAt: deferred.nextPollAt },
    });
    // The lease went back with the state.
    expect(await store.acquireLease(organization.id, 'another-run', now, MINUTE)).toBe(true);
    await store.releaseLease(organization.id, 'another-run');

    // The window frees (the other user's reservation counted a little late), and the cycle catches up.
    now += 2 * MINUTE;
    const caughtUp = await poll();
    expect(caughtUp.outcome).toBe('polled');
    expect(summary(caughtUp.events)).toEqual([`order.completed ${order.reference}`]);
    expect((await pollState()).health.lastSuccessAt).toBe(now);
  });

  it('leaves an order another run committed first to the next cycle, which records its event once', async () => {
    await baseline();
    const [order] = pendingOrders();
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'completed');

    // Between this cycle's load and its commit, another run writes the same order (as it last knew it).
    let otherCommitted = false;
    const racing = commitFirst(store, async (organizationId, change) => {
      if (otherCommitted || change.snapshot.orderUuid !== order.uuid) return;
      otherCommitted = true;
      const known = (await store.loadSnapshots(organizationId)).get(order.uuid);
      if (!known) throw new Error('no snapshot of the order');
      const theirs = await store.commitChange(organizationId, {
        snapshot: { ...known, version: known.version + 1 },
        events: [],
      });
      expect(theirs.outcome).toBe('committed');
    });
    now += MINUTE;
    const raced = await poll({ store: racing });
    expect(otherCommitted).toBe(true);
    expect(raced).toMatchObject({ ok: true, conflicts: 1, events: [] });
    expect((await store.loadSnapshots(organization.id)).get(order.uuid)?.status).toBe('pending');

    const next = await cycle();
    expect(next.conflicts).toBe(0);
    expect(summary(next.events)).toEqual([`order.completed ${order.reference}`]);
    expect((await cycle()).events).toEqual([]);
    const recorded = (await store.listEvents(organization.id)).filter(
      ({ event }) => event.subject === order.uuid,
    );
    expect(recorded.map(({ event }) => event.type)).toEqual(['order.completed']);
  });

  it('marks an order found in no status missing once, without an event, and looks for it no more', async () => {
    await baseline();
    const [order] = pendingOrders();
    if (!order) throw new Error('fixture has no pending order');
    const known = (await store.loadSnapshots(organization.id)).get(order.uuid);
    if (!known) throw new Error('no snapshot of the order');
    sim.world.removeOrder(order.uuid);

    const report = await cycle();
    expect(report).toMatchObject({ ok: true, events: [] });
    expect(report.vanished.map((vanished) => vanished.uuid)).toEqual([order.uuid]);
    // Looked for in every other status, likeliest first, each listing walked completely: among the orders
    // paid as it was, then, since those prove nothing of an order whose payment may have changed, among all.
    const lookUps = report.listings.filter((listing) => listing.purpose === 'resolve');
    const paidAsItWas = `/${order.payment_method_type.value}`;
    expect(lookUps.map((listing) => [listing.status, listing.key.endsWith(paidAsItWas)])).toEqual([
      ['completed', true],
      ['canceled', true],
      ['archived', true],
      ['completed', false],
      ['canceled', false],
      ['archived', false],
    ]);
    for (const listing of lookUps) {
      expect(listing).toMatchObject({
        trustworthy: true,
        startDate: order.pickup_at,
        endDate: order.pickup_at,
      });
      expect(listing.key).toContain(`@${order.establishment.uuid}`);
    }
    const missing = (await store.loadSnapshots(organization.id)).get(order.uuid);
    expect(missing).toEqual({
      ...known,
      missingSince: new Date(now).toISOString(),
      version: known.version + 1,
    });

    const next = await cycle();
    expect(next).toMatchObject({ ok: true, events: [], vanished: [] });
    expect(next.requestsFor.resolve).toBe(0);
    expect((await store.loadSnapshots(organization.id)).get(order.uuid)).toEqual(missing);
  });

  it('announces an order on a date just entering the window only if created within the clock-skew allowance', async () => {
    await cycle();
    const lastWalk = now;
    // Tomorrow's window ends a day later; both orders were made for that day before we could see it.
    const newDay = addDays(LAST_DAY, 1);
    const recent = sim.world.addOrder({ pickupDate: newDay, createdAtMs: lastWalk - CLOCK_SKEW_MS + MINUTE });
    const older = sim.world.addOrder({ pickupDate: newDay, createdAtMs: lastWalk - CLOCK_SKEW_MS - MINUTE });

    now = Date.UTC(2026, 2, 11, 0, 0, 30);
    const report = await poll();
    expect(report.ok).toBe(true);
    expect(
      report.listings.filter((listing) => listing.purpose === 'detect').map((listing) => listing.endDate),
    ).toEqual([newDay]);
    expect(summary(report.events)).toEqual([`order.created ${recent.reference}`]);
    const snapshots = await store.loadSnapshots(organization.id);
    expect(snapshots.has(recent.uuid) && snapshots.has(older.uuid)).toBe(true);
  });

  it('stops at the first 401 when the token is revoked: one request, one failure naming the organization', async () => {
    await cycle();
    const [order] = pendingOrders();
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'completed');
    sim.access.revoke(sim.token);
    const before = sim.requestLog.size;

    const report = await cycle();
    expect(requestsSince(before).map((request) => request.status)).toEqual([401]);
    expect(report).toMatchObject({ outcome: 'polled', ok: false, requests: 1, events: [] });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toContain(`${sim.organization.name}: token rejected (401)`);
    expect((await store.loadSnapshots(organization.id)).get(order.uuid)?.status).toBe('pending');
    expect((await pollState()).health).toMatchObject({
      consecutiveFailures: 1,
      lastError: report.failures[0],
    });
  });

  it('stops at an unreachable API: one listing tried, one failure in the words it is given', async () => {
    await cycle();
    await openClient(`http://127.0.0.1:${await closedPort()}/api/v1/admin`);
    // Late enough that the sweep is due too: every listing would be tried, and fail the same way.
    now += 10 * MINUTE;

    const report = await poll({ describeFailure: (error) => `explained: ${error.constructor.name}` });
    expect(report).toMatchObject({ outcome: 'polled', ok: false, requests: 1, events: [] });
    expect(report.listings.map((listing) => listing.purpose)).toEqual(['detect']);
    expect(report.failures).toEqual(['explained: NetworkError']);
    expect((await pollState()).health).toMatchObject({
      consecutiveFailures: 1,
      lastError: 'explained: NetworkError',
    });
  });

  it('looks where an order went whatever `statuses` says, and announces only what `statuses` names', async () => {
    organization = { ...organization, statuses: ['pending', 'canceled'] };
    await baseline();
    const [done, canceled] = pendingOrders();
    if (!done || !canceled) throw new Error('fixture has too few pending orders');
    sim.world.setStatus(done.uuid, 'completed');
    sim.world.setStatus(canceled.uuid, 'canceled');

    const report = await cycle();
    expect(report.ok).toBe(true);
    expect(summary(report.events)).toEqual([`order.canceled ${canceled.reference}`]);
    expect(
      report.listings.filter((listing) => listing.purpose === 'resolve').map((listing) => listing.status),
    ).toContain('completed');
    const snapshots = await store.loadSnapshots(organization.id);
    expect(snapshots.get(done.uuid)).toMatchObject({ status: 'completed', missingSince: null });
    expect(snapshots.get(canceled.uuid)).toMatchObject({ status: 'canceled', missingSince: null });
    expect((await cycle()).events).toEqual([]);
  });

  it('never emits a false event while one listing keeps failing, and catches up once it recovers', async () => {
    const proxy = await startFailingProxy(
      sim.baseUrl,
      (url) => url.searchParams.get('status') === 'completed',
    );
    try {
      await openClient(proxy.baseUrl);
      await cycle();
      const [order] = pendingOrders();
      if (!order) throw new Error('fixture has no pending order');
      sim.world.setStatus(order.uuid, 'completed');

      for (let i = 0; i < 3; i += 1) {
        const report = await cycle();
        expect(report.ok).toBe(false);
        expect(report.failures.some((line) => line.includes('server error (500)'))).toBe(true);
        expect(report.events).toEqual([]);
        // The failing look-up is asked once a cycle, not once per round of look-ups.
        const failed = report.listings.filter((listing) => listing.purpose === 'resolve' && listing.error);
        expect(failed.map((listing) => listing.status)).toEqual(['completed']);
      }
      const snapshot = (await store.loadSnapshots(organization.id)).get(order.uuid);
      expect(snapshot).toMatchObject({ status: 'pending', missingSince: null });

      await openClient(sim.baseUrl);
      const recovered = await cycle();
      expect(recovered.ok).toBe(true);
      expect(summary(recovered.events)).toEqual([`order.completed ${order.reference}`]);
    } finally {
      await proxy.close();
    }
  });

  it('asks a failing look-up once a cycle, and still looks for the order in the other statuses', async () => {
    const proxy = await startFailingProxy(
      sim.baseUrl,
      (url) => url.searchParams.get('status') === 'completed',
    );
    try {
      await openClient(proxy.baseUrl);
      await cycle();
      const [order] = pendingOrders();
      if (!order) throw new Error('fixture has no pending order');
      sim.world.setStatus(order.uuid, 'canceled');

      const report = await cycle();
      const lookUps = report.listings.filter((listing) => listing.purpose === 'resolve');
      expect(lookUps.map((listing) => `${listing.status} ${listing.error ? 'failed' : 'walked'}`)).toEqual([
        'completed failed',
        'canceled walked',
      ]);
      expect(report.ok).toBe(false);
      expect(summary(report.events)).toEqual([`order.canceled ${order.reference}`]);
    } finally {
      await proxy.close();
    }
  });

  it('reports every problem of a broken listing, and remembers an unreadable order until it reads well', async () => {
    // Four pages of pending: room for all the ways to break it.
    for (let i = 0; i < 20; i += 1) sim.world.addOrder({ pickupDate: TODAY });
    const hostile = hostilePendingListing();
    const proxy = await startRewritingProxy(sim.baseUrl, (url, body) => hostile.rewrite(url, body));
    try {
      await openClient(proxy.baseUrl);
      const broken = await cycle();
      const brokenAt = now;
      const { malformedUuid, repeatedUuid } = hostile;
      if (!malformedUuid || !repeatedUuid) throw new Error('the proxy did not break page 1');
      const detail = 'record #0 on the page: total: Invalid input: expected object, received string';
      // Problems, not failures: the cycle polled, and concluded nothing from the listing's absences.
      expect(broken).toMatchObject({ outcome: 'polled', ok: true, failures: [], events: [] });
      expect(broken.problems).toEqual([
        {
          kind: 'repeated_uuid',
          listing: 'pending',
          page: 1,
          uuid: repeatedUuid,
          detail: 'listed before in this walk; this copy ignored',
        },
        { kind: 'skipped_record', listing: 'pending', page: 1, uuid: malformedUuid, detail },
        {
          kind: 'empty_page_with_more',
          listing: 'pending',
          page: 2,
          detail: 'no record on the page, yet it links to a next one',
        },
        {
          kind: 'inconsistent_walk',
          listing: 'pending',
          page: 3,
          detail: expect.stringMatching(/^meta\.total moved from \d+ to \d+$/),
        },
      ]);
      expect(broken.listings).toEqual([expect.objectContaining({ key: 'pending', trustworthy: false })]);
      expect((await pollState()).unreadable).toEqual({
        [malformedUuid]: { since: brokenAt, lastSeenAt: brokenAt, listing: 'pending', page: 1, detail },
      });

      const still = await cycle();
      expect(still.problems.map((problem) => problem.kind)).toContain('skipped_record');
      expect((await pollState()).unreadable[malformedUuid]).toMatchObject({
        since: brokenAt,
        lastSeenAt: now,
      });

      hostile.heal();
      const healed = await cycle();
      expect(healed).toMatchObject({ ok: true, problems: [], events: [] });
      expect((await pollState()).unreadable).toEqual({});
    } finally {
      await proxy.close();
    }
  });
});
