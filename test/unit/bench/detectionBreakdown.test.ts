import { describe, expect, it } from 'vitest';
import { type BenchCycle, breakDown, walkedPendingDates } from '../../../bench/detectionBreakdown.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { pollReport } from '../cli/pollReportFixture.js';

const ORG = 'org-1';
const ORDER = 'order-1';

function listing(trustworthy: boolean): PollReport['listings'][number] {
  return {
    key: 'pending',
    purpose: 'detect',
    status: 'pending',
    startDate: '2026-03-07',
    endDate: '2026-03-13',
    trustworthy,
    orders: 200,
    pages: 8,
  };
}

function cycle(startedAt: number, endedAt: number, overrides: Partial<PollReport> = {}): BenchCycle {
  return {
    organizationId: ORG,
    startedAt,
    endedAt,
    report: pollReport({ listings: [listing(true)], ...overrides }),
  };
}

/** The breakdown of a change to today's order at `changedAt`, recorded by the cycle ending at `detectedAt`, 100 ms a request. */
function breakDownOf(changedAt: number, detectedAt: number, cycles: BenchCycle[]) {
  return breakDown(
    { organizationId: ORG, orderUuid: ORDER, pickupDate: '2026-03-10', changedAt, detectedAt },
    cycles,
    100,
  );
}

describe('breakDown', () => {
  it('splits the wait for the next walk by the sweep’s share of the cycle before it, then the cycle itself', () => {
    const cycles = [
      cycle(0, 1_000, { requests: 10, requestsFor: { detect: 8, resolve: 0, sweep: 2 } }),
      cycle(20_000, 22_000, { requests: 10, requestsFor: { detect: 8, resolve: 1, sweep: 1 } }),
    ];
    const parts = breakDownOf(10_000, 22_000, cycles);
    expect(parts).toMatchObject({ wait_walk: 8, wait_sweep_share: 2, cycle_sweep_slice: 0.1 });
    // 2 s in the cycle: 0.9 s of its own requests, 0.1 s of sweep, 1 s waiting for budget.
    expect(parts?.cycle_requests).toBeCloseTo(0.9, 6);
    expect(parts?.cycle_budget_wait).toBeCloseTo(1, 6);
  });

  it('charges a cycle that walked pending cut short, and one whose look-up missed, to their reasons', () => {
    const cycles = [
      cycle(20_000, 21_000, { listings: [listing(false)] }),
      cycle(40_000, 41_000, {
        vanished: [{ uuid: ORDER, pickupDate: '2026-03-10', status: 'pending', establishment: 'e' }],
      }),
      cycle(60_000, 61_000, { requests: 10, requestsFor: { detect: 10, resolve: 0, sweep: 0 } }),
    ];
    const parts = breakDownOf(15_000, 61_000, cycles);
    expect(parts).toMatchObject({ wait_walk: 5, missed_walk_cut: 20, missed_lookup: 20, cycle_requests: 1 });
  });

  it('finds nothing to break down without the cycle that recorded the event', () => {
    expect(breakDownOf(0, 5, [cycle(1, 2)])).toBeUndefined();
  });
});

describe('walkedPendingDates', () => {
  it('lists the dates of every pending listing walked whole, with the establishment a listing is at', () => {
    expect([...walkedPendingDates(pollReport({ listings: [listing(true)] }))]).toEqual([
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
    ]);
    const today = {
      ...listing(true),
      key: 'pending[2026-03-10..2026-03-10]@e',
      startDate: '2026-03-10',
      endDate: '2026-03-10',
    };
    expect([...walkedPendingDates(pollReport({ listings: [today, listing(false)] }))]).toEqual([
      '2026-03-10@e',
    ]);
    expect(walkedPendingDates(pollReport({ outcome: 'deferred', listings: [] })).size).toBe(0);
  });

  it('charges a cycle that walked another part of the window to the walk, not to the look-up', () => {
    const elsewhere = { ...listing(true), key: 'pending[2026-03-11..2026-03-13]', startDate: '2026-03-11' };
    const cycles = [
      cycle(20_000, 21_000, { listings: [elsewhere] }),
      cycle(40_000, 41_000, { requests: 10, requestsFor: { detect: 10, resolve: 0, sweep: 0 } }),
    ];
    const parts = breakDownOf(15_000, 41_000, cycles);
    expect(parts).toMatchObject({ wait_walk: 5, missed_walk_cut: 20 });
  });
});
