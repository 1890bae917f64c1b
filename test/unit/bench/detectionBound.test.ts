import { describe, expect, it } from 'vitest';
import { type BoundWorld, detectionBound } from '../../../bench/detectionBound.js';

/** The canteen afternoon as the bench sees it: 9 pending pages, 108 terminal pages swept every 5 minutes. */
const CANTEEN: BoundWorld = {
  usablePerMinute: 45,
  organizations: 1,
  pendingPages: 9,
  lookupsPerMinute: 2.5,
  sweepPages: 108,
  sweepIntervalSeconds: 300,
  pollIntervalSeconds: 10,
  latencyMs: 100,
  deliveryS: 0,
};

describe('detectionBound', () => {
  it('gives the sweep its configured share and pending with its look-ups the rest', () => {
    const bound = detectionBound(CANTEEN);
    // 108 pages in 5 minutes: 21.6 a minute; 45 − 21.6 − 2.5 = 20.9 a minute for 9 pages a walk.
    expect(bound.sweepPerMinute).toBeCloseTo(21.6, 6);
    expect(bound.periodS).toBeCloseTo((9 * 60) / 20.9, 6);
    expect(bound.walkS).toBeCloseTo(1, 6);
    expect(bound.boundS).toBeCloseTo(0.95 * ((9 * 60) / 20.9) + 1, 6);
  });

  it('makes the period a round of every organization on a shared token', () => {
    const one: BoundWorld = {
      ...CANTEEN,
      pendingPages: 1,
      lookupsPerMinute: 0.5,
      sweepPages: 5,
      organizations: 1,
    };
    const twenty = detectionBound({ ...one, organizations: 20 });
    // 20 × 5 pages every 5 minutes = 20 a minute; look-ups 10 a minute; 15 a minute left for 20 pages.
    expect(twenty.sweepPerMinute).toBeCloseTo(20, 6);
    expect(twenty.periodS).toBeCloseTo(80, 6);
    // Alone on the token, the same organization would be held back by its interval only.
    expect(detectionBound(one).periodS).toBe(10);
  });

  it('takes a configured interval longer than the budget allows as the period', () => {
    const aws = detectionBound({ ...CANTEEN, pollIntervalSeconds: 60 });
    expect(aws.periodS).toBe(60);
    expect(aws.boundS).toBeCloseTo(0.95 * 60 + 1, 6);
  });

  it('never makes the period shorter than the round takes at the latency', () => {
    const slow = detectionBound({ ...CANTEEN, latencyMs: 5_000, pollIntervalSeconds: 1 });
    expect(slow.periodS).toBeGreaterThanOrEqual(9 * 5);
  });

  it('adds delivery', () => {
    expect(detectionBound({ ...CANTEEN, deliveryS: 2 }).boundS - detectionBound(CANTEEN).boundS).toBeCloseTo(
      2,
      6,
    );
  });

  it('refuses a world whose sweep and look-ups alone take the whole budget', () => {
    expect(() => detectionBound({ ...CANTEEN, sweepPages: 225 })).toThrow(RangeError);
  });
});
