// API requests per poll cycle on a 1,000-order simulator world (SQLite state in memory), against the lower bound Σ max(1, ceil(n/25)).
import type { PollReport } from '../shared/poll/pollOrganization.js';
import { SqliteStateStore } from '../shared/store/sqlite/sqliteStateStore.js';
import { assertCompleteCycle, FixedClock, openPollFixture } from './support/pollFixture.js';

export async function benchPollRequests(): Promise<Record<string, number>> {
  const clock = new FixedClock();
  const store = new SqliteStateStore({ path: ':memory:', clock: clock.now });
  const fixture = await openPollFixture(store, clock);
  const run = async (label: string): Promise<PollReport> => {
    const report = await fixture.cycle();
    assertCompleteCycle(report, label);
    return report;
  };
  try {
    const ordersInWindow = Object.values(fixture.windowCounts()).reduce((sum, n) => sum + n, 0);
    if (ordersInWindow !== 1_000) throw new Error(`bench world holds ${ordersInWindow} orders, not 1000`);

    const baseline = await run('baseline cycle');
    if (baseline.events.length > 0)
      throw new Error(`baseline cycle emitted ${baseline.events.length} events`);
    if (baseline.ordersSeen !== 1_000) throw new Error(`baseline saw ${baseline.ordersSeen} of 1000 orders`);

    const lowerBound = fixture.lowerBound();
    const steady: number[] = [];
    const steadyMs: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const report = await run('steady cycle');
      steadyMs.push(performance.now() - started);
      if (report.events.length > 0) throw new Error(`steady cycle emitted ${report.events.length} events`);
      if (report.ordersSeen !== 1_000)
        throw new Error(`steady cycle saw ${report.ordersSeen} of 1000 orders`);
      steady.push(report.requests);
    }
    if (new Set(steady).size !== 1) throw new Error(`steady cycles disagree: ${steady.join(', ')} requests`);
    const steadyRequests = steady[0] ?? 0;
    if (steadyRequests < lowerBound) {
      throw new Error(
        `${steadyRequests} requests is below the lower bound ${lowerBound}: a listing was cut short`,
      );
    }

    const expected = fixture.changeTenOrders();
    const changedLowerBound = fixture.lowerBound();
    const changed = await run('changed cycle');
    if (changed.events.length !== expected.events) {
      throw new Error(`changed cycle emitted ${changed.events.length} events, expected ${expected.events}`);
    }
    const narrow = changed.listings.filter((listing) => listing.key.includes(':')).length;

    const after = await run('quiet cycle after the changes');
    if (after.events.length > 0) throw new Error(`quiet cycle emitted ${after.events.length} events`);

    return {
      requests_per_steady_cycle: steadyRequests,
      requests_lower_bound: lowerBound,
      requests_per_changed_cycle: changed.requests,
      requests_lower_bound_changed_cycle: changedLowerBound,
      narrow_requests_per_changed_cycle: narrow,
      events_per_changed_cycle: changed.events.length,
      requests_per_baseline_cycle: baseline.requests,
      sqlite_poll_cycle_ms_1000_orders: Math.round(steadyMs.sort((a, b) => a - b)[1] ?? 0),
    };
  } finally {
    await fixture.close();
    store.close();
  }
}
