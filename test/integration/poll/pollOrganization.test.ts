// The poll cycle end to end in one process: the simulator over real HTTP, the real client, the SQLite
// store. Pins the promises: a silent first cycle, exactly the transitions that happened, nothing
// on a quiet cycle, and no false event while a listing keeps failing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminApiClient } from '../../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import { OrderEventSchema } from '../../../shared/events/orderEvent.js';
import {
  type PolledOrganization,
  type PollReport,
  pollOrganization,
} from '../../../shared/poll/pollOrganization.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { startFailingProxy } from '../../support/failingProxy.js';

/** Tuesday 10 March 2026, 11:00 in Lisbon. */
const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);

let now: number;
let sim: RunningSimulator;
let store: SqliteStateStore;
let client: AdminApiClient | undefined;
let organization: PolledOrganization;

async function openClient(baseUrl: string): Promise<void> {
  await client?.close();
  client = new AdminApiClient({
    baseUrl,
    organizationId: sim.organization.id,
    organizationName: sim.organization.name,
    token: sim.token,
    clock: () => now,
    budget: new RequestBudget({
      token: sim.token,
      store: store.budgetCounters,
      clock: () => now,
      maxWaitMs: 0,
    }),
    retry: { maxAttempts: 1 },
  });
}

async function cycle(): Promise<PollReport> {
  // A minute between cycles, as the scheduler would leave: the request budget refills.
  now += 60_000;
  if (!client) throw new Error('no client');
  return pollOrganization(organization, {
    api: client,
    store,
    clock: () => now,
    runId: 'test-run',
    baseUrl: sim.baseUrl,
  });
}

function summary(report: PollReport): string[] {
  return report.events.map((event) => `${event.type} ${event.data.order.reference}`).sort();
}

beforeEach(async () => {
  now = T0;
  sim = await startSimulator({ seed: 21, scenario: false, initialOrders: 80, clock: () => now });
  store = new SqliteStateStore({ path: ':memory:', clock: () => now });
  await openClient(sim.baseUrl);
  organization = {
    id: sim.organization.id,
    name: sim.organization.name,
    timeZone: 'Europe/Lisbon',
    window: { daysBack: 0, daysAhead: 7 },
    statuses: ['pending', 'completed', 'canceled', 'archived'],
    emitExisting: false,
    pollIntervalSeconds: 10,
    sweepIntervalSeconds: 300,
  };
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  store.close();
  await sim.close();
});

describe('pollOrganization against the simulator', () => {
  it('records a silent baseline on the first cycle', async () => {
    const report = await cycle();
    expect(report.ok).toBe(true);
    expect(report.events).toEqual([]);
    const inWindow = sim.world.listOrders((o) => o.pickup_at >= '2026-03-10' && o.pickup_at <= '2026-03-17');
    expect((await store.loadSnapshots(organization.id)).size).toBe(inWindow.length);
  });

  it('emits exactly the transitions that happened, then nothing on a quiet cycle', async () => {
    await cycle();
    const pending = sim.world.listOrders((o) => o.status.value === 'pending');
    const [a, b, c, d, e] = pending;
    if (!a || !b || !c || !d || !e) throw new Error('fixture has too few pending orders');
    sim.world.setStatus(a.uuid, 'completed');
    sim.world.setStatus(b.uuid, 'completed');
    sim.world.setStatus(c.uuid, 'canceled');
    sim.world.setStatus(d.uuid, 'completed');
    sim.world.setStatus(d.uuid, 'archived');
    const created = sim.world.addOrder({ pickupDate: addDays('2026-03-10', 2) });
    const archived = sim.world.listOrders(
      (o) => o.status.value === 'completed' && o.pickup_at >= '2026-03-10' && o.pickup_at <= '2026-03-17',
    )[0];
    if (!archived) throw new Error('fixture has no completed order');
    sim.world.setStatus(archived.uuid, 'archived');

    const report = await cycle();
    expect(report.ok).toBe(true);
    expect(summary(report)).toEqual(
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
    for (const event of report.events) expect(OrderEventSchema.safeParse(event).success).toBe(true);
    expect(new Set(report.events.map((event) => event.id)).size).toBe(report.events.length);

    const quiet = await cycle();
    expect(quiet.events).toEqual([]);
    expect(quiet.ok).toBe(true);
  });

  it('never emits a false event while one listing keeps failing, and catches up once it recovers', async () => {
    const proxy = await startFailingProxy(
      sim.baseUrl,
      (url) => url.searchParams.get('status') === 'completed',
    );
    try {
      await openClient(proxy.baseUrl);
      await cycle();
      const [order] = sim.world.listOrders((o) => o.status.value === 'pending');
      if (!order) throw new Error('fixture has no pending order');
      sim.world.setStatus(order.uuid, 'completed');

      for (let i = 0; i < 3; i += 1) {
        const report = await cycle();
        expect(report.ok).toBe(false);
        expect(report.failures.some((line) => line.includes('server error (500)'))).toBe(true);
        expect(report.events).toEqual([]);
      }
      const snapshot = (await store.loadSnapshots(organization.id)).get(order.uuid);
      expect(snapshot?.status).toBe('pending');
      expect(snapshot?.missingSince).toBeNull();

      await openClient(sim.baseUrl);
      const recovered = await cycle();
      expect(recovered.ok).toBe(true);
      expect(summary(recovered)).toEqual([`order.completed ${order.reference}`]);
    } finally {
      await proxy.close();
    }
  });

  it('resolves a vanished pending order with a narrow query when the budget is too small for a full sweep', async () => {
    // Every other status spans two pages, so a tight budget cannot sweep them all.
    for (const status of ['completed', 'canceled', 'archived'] as const) {
      for (let i = 0; i < 30; i += 1)
        sim.world.addOrder({ status, pickupDate: addDays('2026-03-10', i % 7) });
    }
    await cycle();
    const [order] = sim.world.listOrders((o) => o.status.value === 'pending' && o.pickup_at >= '2026-03-10');
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'canceled');
    const state = await store.loadPollState(organization.id);
    const pendingPages = Math.ceil((state?.listingSizes.pending ?? 0) / 25);
    // Leave the pending pages and three requests: one two-page listing and one narrow query. The budget
    // draws on its usable share (45 of 50), so that is what the store is filled against.
    const key = client?.budget.key ?? '';
    const usable = client?.budget.usablePerMinute ?? 0;
    expect(usable).toBe(45);
    for (let i = 0; i < usable - pendingPages - 3; i += 1)
      await store.budgetCounters.tryTake(key, T0 + 120_000, usable, 60_000);

    const report = await cycle();
    expect(summary(report)).toEqual([`order.canceled ${order.reference}`]);
    expect(report.deferred).toEqual(['canceled', 'archived']);
    const narrow = report.listings.filter((listing) => listing.startDate === listing.endDate);
    expect(narrow.map((listing) => `${listing.status} ${listing.startDate}`)).toEqual([
      `canceled ${order.pickup_at}`,
    ]);
    expect(report.requests).toBe(pendingPages + 3);
    expect(report.budgetRemaining).toBe(0);
  });

  it('does not announce orders first seen in a listing on its own first walk', async () => {
    const proxy = await startFailingProxy(
      sim.baseUrl,
      (url) => url.searchParams.get('status') === 'archived',
    );
    try {
      await openClient(proxy.baseUrl);
      await cycle();
    } finally {
      await proxy.close();
    }
    await openClient(sim.baseUrl);
    const report = await cycle();
    expect(report.events).toEqual([]);
  });
});
