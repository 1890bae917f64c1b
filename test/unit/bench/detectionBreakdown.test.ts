import { describe, expect, it } from 'vitest';
import { type BenchCycle, breakDown, walkedPendingWhole } from '../../../bench/detectionBreakdown.js';
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

describe('breakDown', () => {
  it('splits the wait for the next walk by the sweep’s share of the cycle before it, then the cycle itself', () => {
    const cycles = [
      cycle(0, 1_000, { requests: 10, requestsFor: { detect: 8, resolve: 0, sweep: 2 } }),
      cycle(20_000, 22_000, { requests: 10, requestsFor: { detect: 8, resolve: 1, sweep: 1 } }),
    ];
    const parts = breakDown(
      { organizationId: ORG, orderUuid: ORDER, changedAt: 10_000, detectedAt: 22_000 },
      cycles,
      100,
    );
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
    const parts = breakDown(
      { organizationId: ORG, orderUuid: ORDER, changedAt: 15_000, detectedAt: 61_000 },
      cycles,
      100,
    );
    expect(parts).toMatchObject({ wait_walk: 5, missed_walk_cut: 20, missed_lookup: 20, cycle_requests: 1 });
  });

  it('finds nothing to break down without the cycle that recorded the event', () => {
    expect(
      breakDown({ organizationId: ORG, orderUuid: ORDER, changedAt: 0, detectedAt: 5 }, [cycle(1, 2)], 100),
    ).toBeUndefined();
  });
});

describe('walkedPendingWhole', () => {
  it('holds for a cycle whose every pending listing was walked whole, and none deferred', () => {
    expect(walkedPendingWhole(pollReport({ listings: [listing(true)] }))).toBe(true);
    expect(walkedPendingWhole(pollReport({ listings: [listing(false)] }))).toBe(false);
    expect(walkedPendingWhole(pollReport({ listings: [listing(true)], deferred: ['pending@x'] }))).toBe(
      false,
    );
    expect(walkedPendingWhole(pollReport({ outcome: 'deferred', listings: [] }))).toBe(false);
  });
});
