import { describe, expect, it } from 'vitest';
import { reservationHoldMs } from '../../../shared/api/requestBudget.js';
import {
  type ChangeRates,
  gapFor,
  type PacingInput,
  pacePoll,
  SLOW_PERIOD_MAX_MS,
  slowPeriodMs,
} from '../../../shared/detect/pacePoll.js';

const MINUTE = 60_000;

function input(overrides: Partial<PacingInput> = {}): PacingInput {
  return {
    usablePerMinute: 45,
    organizationsOnToken: 1,
    detectionRequests: 9,
    sweepPages: 0,
    sweepPeriodMs: 5 * MINUTE,
    minIntervalMs: 0,
    holdMs: 0,
    ...overrides,
  };
}

describe('pacePoll', () => {
  it('with no sweep, spaces cycles so detection spends 90 % of the share, keeping the rest as headroom', () => {
    // 90 % of 45 = 40.5 a minute; 9 requests a cycle: a cycle every 9 / 40.5 min ≈ 13.33 s.
    const pacing = pacePoll(input());
    expect(pacing.perMinute).toBeCloseTo(40.5, 9);
    expect(pacing.intervalMs).toBe(13_333);
  });

  it('spaces cycles by detection requests over what the sweep leaves of the share', () => {
    // 90 % of 50 = 45 a minute. The sweep takes 30 pages over 5 min = 6 a minute (under 20 %, 9);
    // 39 are left for 13 detection requests: every 20 s, each cycle carrying 6 / 3 = 2 sweep pages.
    const pacing = pacePoll(input({ usablePerMinute: 50, detectionRequests: 13, sweepPages: 30 }));
    expect(pacing.intervalMs).toBe(20_000);
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(2, 9);
    expect(pacing.sweepPeriodMs).toBe(5 * MINUTE);
  });

  it('never gives the sweep more than 20 % of the share, stretching its period instead', () => {
    // 90 % of 50 = 45 a minute. 1,000 pages in 5 min would be 200 a minute; the sweep gets 20 % of 45,
    // 9, and detection the other 36: 24 requests every 24 / 36 min = 40 s.
    const pacing = pacePoll(input({ usablePerMinute: 50, detectionRequests: 24, sweepPages: 1_000 }));
    expect(pacing.intervalMs).toBe(40_000);
    expect((pacing.sweepPagesPerCycle * MINUTE) / pacing.intervalMs).toBeCloseTo(9, 9);
    expect(pacing.sweepPeriodMs).toBe(Math.round((1_000 / 9) * MINUTE));
  });

  it('divides the token’s rate between the organizations on it', () => {
    const alone = pacePoll(input());
    const shared = pacePoll(input({ organizationsOnToken: 3 }));
    // Alone: 90 % of 45 = 40.5 a minute. One of three: 90 % of 15 = 13.5, so 9 requests every 40 s.
    expect(shared.perMinute).toBeCloseTo(alone.perMinute / 3, 9);
    expect(shared.intervalMs).toBe(40_000);
  });

  it('treats zero organizations on the token as one', () => {
    expect(pacePoll(input({ organizationsOnToken: 0 })).intervalMs).toBe(pacePoll(input()).intervalMs);
  });

  it('never polls more often than minIntervalMs', () => {
    expect(pacePoll(input({ minIntervalMs: 30_000 })).intervalMs).toBe(30_000);
  });

  it('keeps the computed interval when it is longer than minIntervalMs', () => {
    const pacing = pacePoll(input({ minIntervalMs: 5_000 }));
    expect(pacing.intervalMs).toBe(13_333);
    expect(pacing.minIntervalMs).toBe(5_000);
  });

  it('keeps the sweep at its rate when the minIntervalMs floor spaces cycles further', () => {
    // 30 pages in 5 min = 6 a minute (under 20 % of 40.5); a cycle every 30 s carries 3.
    const pacing = pacePoll(input({ sweepPages: 30, minIntervalMs: 30_000 }));
    expect(pacing.intervalMs).toBe(30_000);
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(3, 9);
    expect(pacing.sweepPeriodMs).toBe(5 * MINUTE);
  });

  it('lowers the sustainable rate by the hold: each request fills the window that much longer', () => {
    // A 6 s hold makes each request count for 66 s of a 60 s window: 40.5 × 60/66 ≈ 36.8 a minute.
    const held = pacePoll(input({ holdMs: 6_000 }));
    expect(held.perMinute).toBeCloseTo((40.5 * 60) / 66, 9);
    expect(held.holdMs).toBe(6_000);
    expect(held.intervalMs).toBe(Math.round((9 / ((40.5 * 60) / 66)) * MINUTE));
    expect(held.intervalMs).toBeGreaterThan(pacePoll(input()).intervalMs);
  });

  it('carries per cycle exactly the sweep’s per-minute rate, spread over the cycles of a minute', () => {
    for (const sweepPages of [1, 30, 108, 400, 5_000]) {
      for (const minIntervalMs of [0, 20_000]) {
        const pacing = pacePoll(input({ sweepPages, minIntervalMs, holdMs: 1_500 }));
        const cyclesPerMinute = MINUTE / pacing.intervalMs;
        const sweepPerMinute = (sweepPages / pacing.sweepPeriodMs) * MINUTE;
        expect(
          pacing.sweepPagesPerCycle * cyclesPerMinute,
          JSON.stringify({ sweepPages, minIntervalMs }),
        ).toBeCloseTo(sweepPerMinute, 3);
      }
    }
  });

  it('reports an endless sweep period when there is nothing to sweep', () => {
    const pacing = pacePoll(input({ sweepPages: 0 }));
    expect(pacing.sweepPagesPerCycle).toBe(0);
    expect(pacing.sweepPeriodMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('works the example: 50 usable a minute, 9 detection requests, 108 sweep pages over 5 minutes', () => {
    // A 9-request cycle is held 2 s to reach the server + 9 × 250 ms = 4,250 ms.
    expect(reservationHoldMs(9)).toBe(4_250);
    const pacing = pacePoll({
      usablePerMinute: 50,
      organizationsOnToken: 1,
      detectionRequests: 9,
      sweepPages: 108,
      sweepPeriodMs: 5 * MINUTE,
      minIntervalMs: 0,
      holdMs: 4_250,
    });
    // Sustainable: 90 % of 50 = 45, × 60 / 64.25 for the hold ≈ 42.02 a minute.
    expect(pacing.perMinute).toBeCloseTo((0.9 * 50 * 60) / 64.25, 9);
    // Sweep: 108 / 5 = 21.6 a minute wanted, but at most 20 % of 42.02 ≈ 8.40, so the full sweep takes
    // 108 / 8.40 ≈ 12.85 min instead of 5.
    expect(pacing.sweepPeriodMs).toBe(771_000);
    // Detection: the other 80 %, ≈ 33.62 a minute, so 9 requests every 9 / 33.62 min ≈ 16.06 s.
    expect(pacing.intervalMs).toBe(16_063);
    // Sweep and detection share each cycle 20 : 80, so a cycle carries 9 × 2 / 8 = 2.25 sweep pages.
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(2.25, 9);
  });
});

describe('pacePoll, today first', () => {
  const busy = (mix: ChangeRates | undefined) =>
    pacePoll(input({ todayFirst: { todayRequests: 2, lookups: 1, restPages: 6, mix } }));

  it('paces the rest so that all changes keep a p95 of 30 s: 30 ÷ (1 - 0.05 ÷ share elsewhere), less 8 s', () => {
    // Half the changes elsewhere: 30 / 0.9 - 8 ≈ 25.3 s; one in five: 30 / 0.75 - 8 = 32 s.
    expect(slowPeriodMs({ today: 5, elsewhere: 5 })).toBeCloseTo(25_333.3, 0);
    expect(slowPeriodMs({ today: 8, elsewhere: 2 })).toBeCloseTo(32_000, 6);
    // Before any change is seen, the mix is taken as even.
    expect(slowPeriodMs(undefined)).toBe(slowPeriodMs({ today: 1, elsewhere: 1 }));
    // Almost nothing elsewhere: the longest period, never longer.
    expect(slowPeriodMs({ today: 99, elsewhere: 1 })).toBe(SLOW_PERIOD_MAX_MS);
    // One in ten: 30 / 0.5 - 8 = 52 s.
    expect(slowPeriodMs({ today: 90, elsewhere: 10 })).toBeCloseTo(52_000, 6);
  });

  it("counts today's edits as slow changes: only a whole walk of today's listing sees them", () => {
    expect(slowPeriodMs({ today: 8, elsewhere: 0, todayEdits: 2 })).toBe(
      slowPeriodMs({ today: 6, elsewhere: 2 }),
    );
    // Without edits, today's whole walk waits the longest period; with some, the slow period.
    expect(busy({ today: 8, elsewhere: 2 }).todayWholeMs).toBe(SLOW_PERIOD_MAX_MS);
    const edited = busy({ today: 8, elsewhere: 1, todayEdits: 1 });
    expect(edited.todayWholeMs).toBe(edited.restPeriodMs);
    expect(edited.todayWholeMs).toBeLessThan(SLOW_PERIOD_MAX_MS);
    expect(edited.restWholeMs).toBe(SLOW_PERIOD_MAX_MS);
  });

  it("walks the rest's dates whole as often as they are read once edits are seen there, and checks them between", () => {
    // Edits elsewhere are among the changes elsewhere: they do not change the slow period.
    const plain = busy({ today: 8, elsewhere: 2 });
    const edited = busy({ today: 8, elsewhere: 2, elsewhereEdits: 1 });
    expect(edited.restPeriodMs).toBe(plain.restPeriodMs);
    expect(plain.restWholeMs).toBe(SLOW_PERIOD_MAX_MS);
    expect(edited.restWholeMs).toBe(edited.restPeriodMs);
    expect(edited.todayWholeMs).toBe(SLOW_PERIOD_MAX_MS);
  });

  it("comes as often as what is left after the rest's pages pays for today's reading and its look-ups", () => {
    const pacing = busy({ today: 8, elsewhere: 2 });
    // A cycle reads today's listing and its look-up (3 requests) and its share of the rest's 6 pages every
    // 32 s, and carries its sweep pages: together, all the share plans for a minute.
    expect(pacing.restPeriodMs).toBeCloseTo(32_000, 6);
    const perCycle = 3 + (6 * pacing.intervalMs) / pacing.restPeriodMs + pacing.sweepPagesPerCycle;
    expect((perCycle * MINUTE) / pacing.intervalMs).toBeCloseTo(pacing.perMinute, 1);
    // Cheaper cycles come more often: today's listing is read sooner than in whole walks of the window.
    expect(pacing.intervalMs).toBeLessThan(pacePoll(input({ detectionRequests: 11 })).intervalMs);
  });

  it('gives the sweep at most 10 % of the share while today is first', () => {
    const pacing = pacePoll(
      input({
        sweepPages: 1_000,
        todayFirst: { todayRequests: 4, lookups: 1, restPages: 6, mix: undefined },
      }),
    );
    expect((pacing.sweepPagesPerCycle * MINUTE) / pacing.intervalMs).toBeCloseTo(4.05, 3);
  });
});

describe('gapFor', () => {
  const pacing = pacePoll(input({ sweepPages: 108, holdMs: 2_250 }));

  it('spaces cycles by what they cost of the whole share, sweep included', () => {
    // 39.04 a minute: cycles of 9 requests every 9 / 39.04 min ≈ 13.83 s, of 20 every ≈ 30.74 s.
    expect(gapFor(pacing, 9)).toBe(Math.round((9 / pacing.perMinute) * MINUTE));
    expect(gapFor(pacing, 9)).toBe(13_833);
    expect(gapFor(pacing, 20)).toBe(30_741);
  });

  it('gives back the planned interval for cycles that cost what was planned', () => {
    const planned = 9 + pacing.sweepPagesPerCycle;
    expect(gapFor(pacing, planned)).toBe(pacing.intervalMs);
  });

  it('grows with the average cost of a cycle', () => {
    expect(gapFor(pacing, 12)).toBeGreaterThan(gapFor(pacing, 11));
  });

  it('never gives a gap shorter than minIntervalMs', () => {
    const floored = pacePoll(input({ minIntervalMs: 10_000 }));
    expect(gapFor(floored, 0)).toBe(10_000);
    expect(gapFor(floored, 1)).toBe(10_000);
    // 9 requests at 40.5 a minute ≈ 13.33 s, past the floor.
    expect(gapFor(floored, 9)).toBe(13_333);
  });
});
