import { describe, expect, it } from 'vitest';
import { reservationHoldMs } from '../../../shared/api/requestBudget.js';
import { gapFor, type PacingInput, pacePoll } from '../../../shared/detect/pacePoll.js';

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
    // 90 % of 50 = 45 a minute. The sweep takes 60 pages over 5 min = 12 a minute (under 30 %, 13.5);
    // 33 are left for 11 detection requests: every 20 s, each cycle carrying 12 / 3 = 4 sweep pages.
    const pacing = pacePoll(input({ usablePerMinute: 50, detectionRequests: 11, sweepPages: 60 }));
    expect(pacing.intervalMs).toBe(20_000);
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(4, 9);
    expect(pacing.sweepPeriodMs).toBe(5 * MINUTE);
  });

  it('never gives the sweep more than 30 % of the share, stretching its period instead', () => {
    // 90 % of 50 = 45 a minute. 1,000 pages in 5 min would be 200 a minute; the sweep gets 30 % of 45,
    // 13.5, and detection the other 31.5: 21 requests every 21 / 31.5 min = 40 s.
    const pacing = pacePoll(input({ usablePerMinute: 50, detectionRequests: 21, sweepPages: 1_000 }));
    expect(pacing.intervalMs).toBe(40_000);
    expect((pacing.sweepPagesPerCycle * MINUTE) / pacing.intervalMs).toBeCloseTo(13.5, 9);
    expect(pacing.sweepPeriodMs).toBe(Math.round((1_000 / 13.5) * MINUTE));
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
    // 60 pages in 5 min = 12 a minute; a cycle every 30 s carries 6.
    const pacing = pacePoll(input({ sweepPages: 60, minIntervalMs: 30_000 }));
    expect(pacing.intervalMs).toBe(30_000);
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(6, 9);
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

  it('works the documented example: 45 usable a minute, 9 detection requests, 108 sweep pages over 5 minutes', () => {
    // 50/min less the 10 % margin = 45 usable; a 9-request cycle is held 9 × 250 ms = 2,250 ms.
    expect(reservationHoldMs(9)).toBe(2_250);
    const pacing = pacePoll({
      usablePerMinute: 45,
      organizationsOnToken: 1,
      detectionRequests: 9,
      sweepPages: 108,
      sweepPeriodMs: 5 * MINUTE,
      minIntervalMs: 0,
      holdMs: 2_250,
    });
    // Sustainable: 90 % of 45 = 40.5, × 60 / 62.25 for the hold ≈ 39.04 a minute.
    expect(pacing.perMinute).toBeCloseTo((0.9 * 45 * 60) / 62.25, 9);
    // Sweep: 108 / 5 = 21.6 a minute wanted, but at most 30 % of 39.04 ≈ 11.71, so the full sweep takes
    // 108 / 11.71 ≈ 9.22 min instead of 5.
    expect(pacing.sweepPeriodMs).toBe(553_333);
    // Detection: the other 70 %, ≈ 27.33 a minute, so 9 requests every 9 / 27.33 min ≈ 19.76 s.
    expect(pacing.intervalMs).toBe(19_762);
    // Sweep and detection share each cycle 30 : 70, so a cycle carries 9 × 3 / 7 ≈ 3.857 sweep pages.
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(27 / 7, 9);
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
