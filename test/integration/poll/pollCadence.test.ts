// The cadence as the poll cycle applies it, against the simulator over real HTTP, a real budget and SQLite
// on a virtual clock: `fixed` keeps pollIntervalSeconds whatever the establishments do; `auto` polls as
// fast as the budget allows around a closing time, once every coldSweepMinutes (the sweep included)
// on a day no establishment works, never past the start of the next hot window, and as `fixed` until the
// establishments are known.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminApiClient } from '../../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import type { Establishment } from '../../../shared/api/schemas.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { failOnCleanupFailure } from '../../support/cycleFixture.js';

/** Tuesday 10 March 2026, 11:00 in Lisbon (UTC+0 until the end of March). */
const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);
const MINUTE = 60_000;

function establishment(overrides: Partial<Establishment>): Establishment {
  return {
    uuid: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'Main Canteen',
    allowed_order_pickup_time_type: 'interval',
    allowed_order_pickup_time_interval: ['12:00', '14:00'],
    working_days: [1, 2, 3, 4, 5],
    order_closing_time: '10:00:00',
    menu_closing_time: null,
    daily_order_closure: 1,
    status: { label: 'Active', value: 'active' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

describe('pollOrganization’s cadence', () => {
  let now: number;
  const clock = () => now;
  let sim: RunningSimulator;
  let store: SqliteStateStore;
  let client: AdminApiClient;
  let organization: PolledOrganization;

  beforeEach(async () => {
    now = T0;
    sim = await startSimulator({ seed: 21, scenario: false, initialOrders: 40, clock });
    store = new SqliteStateStore({ path: ':memory:', clock });
    client = new AdminApiClient({
      baseUrl: sim.baseUrl,
      organizationId: sim.organization.id,
      organizationName: sim.organization.name,
      token: sim.token,
      clock,
      budget: new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 }),
      retry: { maxAttempts: 1 },
    });
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
    await client.close();
    store.close();
    await sim.close();
  });

  /**
   * Every establishment of the simulator keeps `hours`' working days and closing time, and the cache holds
   * them as GET /establishments would have filled it: no order names an establishment it lacks.
   */
  async function knownSchedule(hours: Establishment): Promise<void> {
    for (const { uuid } of sim.world.establishments()) {
      sim.world.setWorkingDays(uuid, hours.working_days);
      sim.world.setOrderClosingTime(uuid, hours.order_closing_time);
    }
    await store.savePollState({
      ...initialPollState(organization.id),
      establishments: { fetchedAt: now, records: sim.world.establishments() },
    });
  }

  function poll(): Promise<PollReport> {
    return pollOrganization(organization, {
      api: client,
      store,
      clock,
      runId: 'test-run',
      baseUrl: sim.baseUrl,
      onCleanupFailure: failOnCleanupFailure,
    });
  }

  /** Cycles at their due times until the sweep's first pass is behind: from then on cycles cost alike. */
  /** The last of 20 cycles, and what the last ten cost a minute between them. */
  async function steady(): Promise<PollReport & { perMinute: number }> {
    let report = await poll();
    let requests = 0;
    let from = now;
    for (let cycle = 0; cycle < 20; cycle += 1) {
      now = Math.max(report.nextPollAt, now + 1);
      if (cycle === 10) {
        requests = 0;
        from = now;
      }
      report = await poll();
      requests += report.requests;
    }
    return { ...report, perMinute: (requests * MINUTE) / (report.nextPollAt - from) };
  }

  it('keeps pollIntervalSeconds under "fixed", even in the half hour before a closing time', async () => {
    await knownSchedule(establishment({ order_closing_time: '11:20:00' }));
    organization.cadence = 'fixed';
    const report = await steady();
    expect(report.cadence).toBe('fixed');
    expect(report.nextPollAt - now).toBeGreaterThanOrEqual(10_000);
  });

  it('polls faster than pollIntervalSeconds under "auto" in the half hour before a closing time, as the budget allows', async () => {
    await knownSchedule(establishment({ order_closing_time: '11:20:00' }));
    const report = await steady();
    expect(report.cadence).toBe('hot');
    const gap = report.nextPollAt - now;
    expect(gap).toBeLessThan(10_000);
    expect(gap).toBeGreaterThanOrEqual(2_000);
    // What the cycles really cost stays within the usable 45 a minute (today's cycles and the window's
    // between them cost differently: the pace holds on average).
    expect(report.perMinute).toBeLessThanOrEqual(45);
  });

  it('polls at pollIntervalSeconds on a working day away from closing times', async () => {
    await knownSchedule(establishment({ order_closing_time: '16:00:00' }));
    const report = await poll();
    expect(report.cadence).toBe('normal');
    expect(report.nextPollAt - now).toBeGreaterThanOrEqual(10_000);
    expect(report.nextPollAt - now).toBeLessThan(MINUTE);
  });

  it('comes back once every coldSweepMinutes on a day no establishment works, the sweep going on in those cycles', async () => {
    // Tuesday is not a working day.
    await knownSchedule(establishment({ working_days: [1, 3, 4, 5] }));
    organization.coldSweepMinutes = 20;
    const reports: PollReport[] = [];
    for (let cycle = 0; cycle < 3; cycle += 1) {
      const report = await poll();
      expect(report).toMatchObject({ cadence: 'cold', nextPollAt: now + 20 * MINUTE });
      reports.push(report);
      now = report.nextPollAt;
    }
    // Three cold cycles in an hour sweep every terminal listing: an archived order is still seen that day.
    const swept = (await store.loadPollState(organization.id))?.sweep.sweptAt ?? {};
    expect(Object.keys(swept).sort()).toEqual(['archived', 'canceled', 'completed']);
    expect(reports.slice(1).every((report) => report.requestsFor.sweep > 0)).toBe(true);
  });

  it('never lets a cold gap run past the start of the next hot window', async () => {
    // Tuesday is closed; Wednesday's orders close at 00:10, so Tuesday is hot from 23:40.
    now = Date.UTC(2026, 2, 10, 23, 30, 0);
    await knownSchedule(establishment({ working_days: [3], order_closing_time: '00:10:00' }));
    const cold = await poll();
    expect(cold).toMatchObject({ cadence: 'cold', nextPollAt: Date.UTC(2026, 2, 10, 23, 40, 0) });
    now = cold.nextPollAt;
    expect((await poll()).cadence).toBe('hot');
  });

  it('behaves as "fixed" under "auto" until the establishments are known', async () => {
    const report = await poll();
    expect(report.cadence).toBe('fixed');
    expect(report.nextPollAt - now).toBeGreaterThanOrEqual(10_000);
  });
});
