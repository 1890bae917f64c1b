import { describe, expect, it } from 'vitest';
import { reservationHoldMs } from '../../../shared/api/requestBudget.js';
import { type PacingInput, pacePoll } from '../../../shared/detect/pacePoll.js';

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
  it('with no sweep, spaces cycles so detection spends the whole share', () => {
    // 9 requests a cycle at 45 a minute: a cycle every 12 s.
    expect(pacePoll(input()).intervalMs).toBe(12_000);
  });

  it('spaces cycles by detection requests over what the sweep leaves of the share', () => {
    // The sweep takes 60 pages over 5 min = 12 a minute; 33 are left for 11 detection requests: every 20 s.
    const pacing = pacePoll(input({ detectionRequests: 11, sweepPages: 60 }));
    expect(pacing.intervalMs).toBe(20_000);
    expect(pacing.sweepPeriodMs).toBe(5 * MINUTE);
  });

  it('never gives the sweep more than half the share, stretching its period instead', () => {
    // 1,000 pages in 5 min would be 200 a minute; the sweep gets 22.5 of 45, and detection the other 22.5.
    const pacing = pacePoll(input({ sweepPages: 1_000 }));
    expect(pacing.intervalMs).toBe(24_000);
    expect((pacing.sweepPagesPerCycle * MINUTE) / pacing.intervalMs).toBeCloseTo(22.5, 9);
    expect(pacing.sweepPeriodMs).toBe(Math.round((1_000 / 22.5) * MINUTE));
  });

  it('divides the token’s rate between the organizations on it', () => {
    const alone = pacePoll(input({ sweepPages: 30 }));
    const shared = pacePoll(input({ sweepPages: 30, organizationsOnToken: 3 }));
    // Alone: 45 - 6 (sweep) = 39 a minute for detection. One of three: 15 - 6 = 9.
    expect(alone.intervalMs).toBe(Math.round((9 / 39) * MINUTE));
    expect(shared.intervalMs).toBe(MINUTE);
  });

  it('treats zero organizations on the token as one', () => {
    expect(pacePoll(input({ organizationsOnToken: 0 })).intervalMs).toBe(pacePoll(input()).intervalMs);
  });

  it('never polls more often than minIntervalMs', () => {
    expect(pacePoll(input({ minIntervalMs: 30_000 })).intervalMs).toBe(30_000);
  });

  it('keeps the computed interval when it is longer than minIntervalMs', () => {
    expect(pacePoll(input({ minIntervalMs: 5_000 })).intervalMs).toBe(12_000);
  });

  it('keeps the sweep at its rate when the minIntervalMs floor spaces cycles further', () => {
    // 60 pages in 5 min = 12 a minute; a cycle every 30 s carries 6.
    const pacing = pacePoll(input({ sweepPages: 60, minIntervalMs: 30_000 }));
    expect(pacing.intervalMs).toBe(30_000);
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(6, 9);
    expect(pacing.sweepPeriodMs).toBe(5 * MINUTE);
  });

  it('lowers the sustainable rate by the hold: each request fills the window that much longer', () => {
    // A 6 s hold makes each request count for 66 s of a 60 s window: 45 × 60/66 ≈ 40.9 a minute.
    const held = pacePoll(input({ holdMs: 6_000 }));
    expect(held.intervalMs).toBe(Math.round((9 / ((45 * 60) / 66)) * MINUTE));
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

  it('works the README example: 45 usable a minute, 9 detection requests, 108 sweep pages over 5 minutes', () => {
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
    // Sustainable: 45 × 60 / 62.25 ≈ 43.37 a minute. Sweep: 108 / 5 = 21.6 a minute (under half, 21.69).
    // Detection: 43.37 − 21.6 ≈ 21.77 a minute, so 9 requests every 9 / 21.77 min ≈ 24.8 s.
    expect(pacing.intervalMs).toBe(24_801);
    // 21.6 pages a minute over ≈ 2.42 cycles a minute: ≈ 8.93 pages a cycle; the full sweep takes 5 min.
    expect(pacing.sweepPagesPerCycle).toBeCloseTo(8.928, 3);
    expect(pacing.sweepPeriodMs).toBe(300_000);
  });
});
