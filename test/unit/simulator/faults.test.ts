import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../simulator/faults.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';

const outcomes = (faults: FaultInjector, count: number) =>
  Array.from({ length: count }, () => faults.takeServerError() ?? 200);

describe('FaultInjector', () => {
  it('injects none by default', () => {
    const faults = new FaultInjector(new SeededRandom(1));
    expect(outcomes(faults, 100).every((status) => status === 200)).toBe(true);
    expect(faults.takeForced429()).toBeUndefined();
  });

  it('fails about the configured share of requests, the same ones for the same seed', () => {
    const a = outcomes(new FaultInjector(new SeededRandom(1), { errorRate: 0.3 }), 1000);
    const b = outcomes(new FaultInjector(new SeededRandom(1), { errorRate: 0.3 }), 1000);
    expect(a).toEqual(b);
    const failures = a.filter((status) => status === 500).length;
    expect(failures).toBeGreaterThan(250);
    expect(failures).toBeLessThan(350);
  });

  it('hands out exactly the forced 429s, each with its Retry-After', () => {
    const faults = new FaultInjector(new SeededRandom(1));
    faults.force429(2, 7);
    expect(faults.takeForced429()).toBe(7);
    expect(faults.settings.force429).toBe(1);
    expect(faults.takeForced429()).toBe(7);
    expect(faults.takeForced429()).toBeUndefined();
  });

  it('changes at runtime, and refuses settings that make no sense', () => {
    const faults = new FaultInjector(new SeededRandom(1));
    faults.set({ errorRate: 1, errorStatus: 503 });
    expect(faults.takeServerError()).toBe(503);
    faults.reset();
    expect(faults.takeServerError()).toBeUndefined();
    expect(() => faults.set({ errorRate: 2 })).toThrow(RangeError);
    expect(() => faults.set({ errorStatus: 404 })).toThrow(RangeError);
    expect(() => faults.set({ latencyMs: -1 })).toThrow(RangeError);
    expect(() => faults.set({ linkOrigin: 'not a url' })).toThrow(RangeError);
  });
});
