// API requests of the budget-true poll cycle on a 1,000-order simulator world (520 pending, 260 completed,
// 90 canceled, 130 archived; SQLite state in memory; unconstrained budget; the clock moved 60 s per cycle).
// A cycle walks pending whole, looks up the orders that left it with narrow listings, and reads a slice of
// the slow sweep of the terminal listings (completed, canceled, archived), resumed across cycles.
//
// Figures:
// - requests_per_baseline_cycle: requests of the very first cycle only; the baseline is not one cycle any
//   more. On this world it is pending alone: nothing is known yet of the listings' sizes, so the cycle's
//   reservation does not hold the whole-walk baseline pass over completed, which waits for the next cycle.
// - baseline_cycles: cycles until every terminal listing has been swept once (poll state `sweptAt` holds
//   completed, canceled and archived), with no event emitted and all 1,000 orders then in the snapshots.
// - requests_per_steady_cycle: mean requests of the 5 unchanged cycles that follow (one sweep period:
//   sweepIntervalSeconds 300 at 60 s a cycle); pending walk plus that cycle's sweep slice.
// - sweep_requests_per_steady_cycle: mean of those cycles' requestsFor.sweep, the part that is the sweep.
// - requests_lower_bound: max(1, ceil(n/25)) over the pending listing only (n = 520 pending): what any
//   correct poller must read every cycle to see every new order. The sweep is extra on purpose: terminal
//   listings are read only to catch what look-ups from pending cannot (completed or canceled orders being
//   archived, orders that never showed in pending), and that is bounded by the sweep period, not per cycle.
//   Asserted: requests_per_steady_cycle >= requests_lower_bound.
// - requests_per_changed_cycle: requests of the first cycle after changeTenOrders (4 pending → completed,
//   2 pending → canceled, 2 completed → archived, 1 pickup date moved, 1 new order).
// - requests_lower_bound_changed_cycle: pending pages after the change + one request per distinct
//   (new status, pickup date, establishment) of the orders that left pending: the fewest narrow look-ups
//   that find them. Sweep pages are not in it.
// - narrow_requests_per_changed_cycle: requestsFor.resolve of that first cycle: the look-up requests.
// - events_per_changed_cycle: events of that first cycle (the archive transitions come later, with the
//   sweep).
// - cycles_to_all_changes: cycles, the first included, until all 9 expected events were seen (at most 10);
//   asserted exactly 9 in all, and a quiet cycle after emits nothing.
// - sqlite_poll_cycle_ms_1000_orders: median wall time of the steady cycles (simulator and SQLite in
//   process).
import type { PollReport } from '../shared/poll/pollReport.js';
import { SqliteStateStore } from '../shared/store/sqlite/sqliteStateStore.js';
import { assertSoundCycle, FixedClock, openPollFixture, sweptOnce } from './support/pollFixture.js';

/** Cycles the first full sweep may take before the bench gives up. */
const MAX_BASELINE_CYCLES = 20;
/** One sweep period: sweepIntervalSeconds 300 at a cycle every 60 s. */
const STEADY_CYCLES = 5;
/** Cycles the changes may take to be seen in full. */
const MAX_CHANGE_CYCLES = 10;

export async function benchPollRequests(): Promise<Record<string, number>> {
  const clock = new FixedClock();
  const store = new SqliteStateStore({ path: ':memory:', clock: clock.now });
  const fixture = await openPollFixture(store, clock);
  const id = fixture.organization.id;
  const run = async (label: string): Promise<PollReport> => {
    const report = await fixture.cycle();
    assertSoundCycle(report, label);
    return report;
  };
  try {
    const ordersInWindow = Object.values(fixture.windowCounts()).reduce((sum, n) => sum + n, 0);
    if (ordersInWindow !== 1_000) throw new Error(`bench world holds ${ordersInWindow} orders, not 1000`);

    const baseline: PollReport[] = [];
    while (!(await sweptOnce(store, id))) {
      if (baseline.length >= MAX_BASELINE_CYCLES) {
        throw new Error(`the first full sweep took more than ${MAX_BASELINE_CYCLES} cycles`);
      }
      const report = await run(`baseline cycle ${baseline.length + 1}`);
      if (report.events.length > 0) {
        throw new Error(`baseline cycle ${baseline.length + 1} emitted ${report.events.length} events`);
      }
      baseline.push(report);
    }
    const snapshots = (await store.loadSnapshots(id)).size;
    if (snapshots !== 1_000) throw new Error(`after the baseline ${snapshots} snapshots, not 1000`);

    const lowerBound = fixture.pendingLowerBound();
    const steady: PollReport[] = [];
    const steadyMs: number[] = [];
    for (let i = 0; i < STEADY_CYCLES; i += 1) {
      const started = performance.now();
      const report = await run(`steady cycle ${i + 1}`);
      steadyMs.push(performance.now() - started);
      if (report.events.length > 0) throw new Error(`steady cycle emitted ${report.events.length} events`);
      steady.push(report);
    }
    const steadyRequests = mean(steady.map((report) => report.requests));
    const steadySweep = mean(steady.map((report) => report.requestsFor.sweep));
    if (steadyRequests < lowerBound) {
      throw new Error(
        `${steadyRequests} requests a cycle is below the lower bound ${lowerBound}: pending was cut short`,
      );
    }

    const expected = fixture.changeTenOrders();
    const changedLowerBound = fixture.pendingLowerBound() + expected.leftPendingListings;
    const changes: PollReport[] = [];
    let events = 0;
    while (events < expected.events) {
      if (changes.length >= MAX_CHANGE_CYCLES) {
        throw new Error(`${events} of ${expected.events} events after ${MAX_CHANGE_CYCLES} cycles`);
      }
      const report = await run(`cycle ${changes.length + 1} after the changes`);
      events += report.events.length;
      changes.push(report);
    }
    if (events !== expected.events) throw new Error(`${events} events, expected ${expected.events}`);
    const changed = changes[0];
    if (!changed) throw new Error('no cycle after the changes');

    const after = await run('quiet cycle after the changes');
    if (after.events.length > 0) throw new Error(`quiet cycle emitted ${after.events.length} events`);

    return {
      requests_per_steady_cycle: round(steadyRequests),
      sweep_requests_per_steady_cycle: round(steadySweep),
      requests_lower_bound: lowerBound,
      requests_per_changed_cycle: changed.requests,
      requests_lower_bound_changed_cycle: changedLowerBound,
      narrow_requests_per_changed_cycle: changed.requestsFor.resolve,
      events_per_changed_cycle: changed.events.length,
      cycles_to_all_changes: changes.length,
      requests_per_baseline_cycle: baseline[0]?.requests ?? 0,
      baseline_cycles: baseline.length,
      sqlite_poll_cycle_ms_1000_orders: Math.round(median(steadyMs)),
    };
  } finally {
    await fixture.close();
    store.close();
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
