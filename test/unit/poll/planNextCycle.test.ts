// Pins the pace record a cycle leaves: the next cycle due after the gap what cycles cost on average pays
// for, never after the cadence changes, later when a baseline pass waits for room; soon after a deferral.
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_REJECTED_RETRY_MS } from '../../../shared/contracts/tokenRejected.js';
import { pacePoll } from '../../../shared/detect/pacePoll.js';
import { changeRates } from '../../../shared/poll/changeRates.js';
import type { CycleContext } from '../../../shared/poll/cycleContext.js';
import type { CyclePlan } from '../../../shared/poll/planCycle.js';
import { planNextCycle, retryDeferredCycle } from '../../../shared/poll/planNextCycle.js';
import type { PaceState } from '../../../shared/store/pollState.js';
import { cycleFixture, T0 } from '../../support/cycleFixture.js';

const FIRST: PaceState = { averageCycleRequests: 0, nextPollAt: null };
/** After cycles that cost `average` requests each. */
const paced = (average: number): PaceState => ({ averageCycleRequests: average, nextPollAt: T0 - 30_000 });

/** 45 usable a minute, 90 % planned for: 40.5 requests a minute, cycles at least 10 s apart. */
function plan(overrides: Partial<CyclePlan> = {}): CyclePlan {
  const pace = pacePoll({
    usablePerMinute: 45,
    organizationsOnToken: 1,
    detectionRequests: 2,
    sweepPages: 3,
    sweepPeriodMs: 60_000,
    minIntervalMs: 10_000,
    holdMs: 0,
  });
  return {
    cadence: { mode: 'fixed', minIntervalMs: 10_000, changesAt: null },
    detection: [],
    unwalkable: [],
    todayOnly: false,
    today: undefined,
    detectionRequests: 2,
    otherDaysShare: 1,
    owedLookups: 0,
    lookupAllowance: 1,
    pace,
    sweepBudget: 1,
    baselinePages: 0,
    planned: 3,
    ...overrides,
  };
}

let context: CycleContext;
beforeAll(async () => {
  ({ context } = await cycleFixture());
});

describe('planNextCycle', () => {
  it('dates the next cycle the gap this cycle’s cost takes of the pace, after this one began', () => {
    // 20 requests at 40.5 a minute: 29.63 s.
    expect(planNextCycle(context, plan(), paced(20), { spent: 20, baselineDeferred: false })).toEqual({
      averageCycleRequests: 20,
      nextPollAt: T0 + 29_630,
    });
  });

  it('after a first cycle, whole-window baseline, comes at the planned interval, not what the baseline cost', () => {
    const planned = plan();
    const next = planNextCycle(context, planned, FIRST, { spent: 40, baselineDeferred: false });
    expect(next.nextPollAt).toBe(T0 + planned.pace.intervalMs);
    expect(next.averageCycleRequests).toBeCloseTo(
      (planned.pace.perMinute * planned.pace.intervalMs) / 60_000,
      9,
    );
    // From then on, what cycles cost.
    const later = planNextCycle(context, planned, next, { spent: 40, baselineDeferred: false });
    expect(later.averageCycleRequests).toBeCloseTo(0.8 * next.averageCycleRequests + 0.2 * 40, 9);
  });

  it('never comes sooner than the cadence’s least interval', () => {
    expect(planNextCycle(context, plan(), paced(2), { spent: 2, baselineDeferred: false }).nextPollAt).toBe(
      T0 + 10_000,
    );
  });

  it('plans from the moving average, so a burst of look-ups does not push the next cycle away', () => {
    const next = planNextCycle(
      context,
      plan(),
      { averageCycleRequests: 20, nextPollAt: T0 },
      { spent: 70, baselineDeferred: false },
    );
    // 0.8 × 20 + 0.2 × 70 = 30 requests: 44.44 s, where 70 alone would take 103.7 s.
    expect(next).toEqual({ averageCycleRequests: 30, nextPollAt: T0 + 44_444 });
  });

  it('keeps the changes found and the minutes they were found over, with decay, once a cycle found one', () => {
    const sample = (today: number, elsewhere?: { changes: number; edits: number; minutes: number }) => ({
      spent: 2,
      baselineDeferred: false,
      changes: { today, todayEdits: 0, todayMinutes: 0.1, ...(elsewhere ? { elsewhere } : {}) },
    });
    const quiet = planNextCycle(context, plan(), FIRST, sample(0, { changes: 0, edits: 0, minutes: 0.5 }));
    expect(quiet.changes).toBeUndefined();
    const first = planNextCycle(context, plan(), quiet, sample(3, { changes: 2, edits: 1, minutes: 0.5 }));
    expect(first.changes).toEqual({
      today: 3,
      todayEdits: 0,
      todayMinutes: 0.1,
      elsewhere: 2,
      elsewhereEdits: 1,
      elsewhereMinutes: 0.5,
    });
    // Less than a minute of either: no rates yet, the mix is taken as even. A minute of each: their ratio.
    expect(changeRates(first.changes as NonNullable<typeof first.changes>)).toBeUndefined();
    const known = { today: 30, todayEdits: 3, todayMinutes: 2, elsewhere: 4, elsewhereMinutes: 1 };
    expect(changeRates(known)).toEqual({ today: 15, todayEdits: 1.5, elsewhere: 4, elsewhereEdits: 0 });
    expect(changeRates({ ...known, elsewhereEdits: 2, elsewhereMinutes: 2 })?.elsewhereEdits).toBe(1);
    // A cycle that walked no other day leaves the rest's sums alone, and today's decay by its minutes.
    const after = planNextCycle(context, plan(), first, sample(0));
    expect(after.changes?.elsewhere).toBe(2);
    expect(after.changes?.elsewhereEdits).toBe(1);
    expect(after.changes?.elsewhereMinutes).toBe(0.5);
    expect(after.changes?.today).toBeCloseTo(3 * Math.exp(-0.1 / 5), 9);
    expect(after.changes?.todayMinutes).toBeCloseTo(0.1 * Math.exp(-0.1 / 5) + 0.1, 9);
  });

  it('retries a rejected token five minutes on, whatever the pace, the cadence or its next change', () => {
    const hot = plan({ cadence: { mode: 'hot', minIntervalMs: 2_000, changesAt: T0 + 5_000 } });
    const next = planNextCycle(context, hot, FIRST, {
      spent: 1,
      baselineDeferred: false,
      tokenRejected: true,
    });
    expect(next.nextPollAt).toBe(T0 + TOKEN_REJECTED_RETRY_MS);
    expect(TOKEN_REJECTED_RETRY_MS).toBe(5 * 60_000);
  });

  it('is due by the time the cadence changes, even sooner than its interval', () => {
    const changesAt = T0 + 5_000;
    const next = planNextCycle(
      context,
      plan({ cadence: { mode: 'cold', minIntervalMs: 900_000, changesAt } }),
      FIRST,
      {
        spent: 20,
        baselineDeferred: false,
      },
    );
    expect(next.nextPollAt).toBe(changesAt);
  });

  it('waits for room for a baseline pass it had to leave, without counting it as spent', () => {
    const owing = plan({ baselinePages: 9 });
    expect(planNextCycle(context, owing, paced(20), { spent: 20, baselineDeferred: false }).nextPollAt).toBe(
      T0 + 29_630,
    );
    // 20 spent and 9 owed: 42.96 s.
    expect(planNextCycle(context, owing, paced(20), { spent: 20, baselineDeferred: true })).toEqual({
      averageCycleRequests: 20,
      nextPollAt: T0 + 42_963,
    });
  });
});

describe('retryDeferredCycle', () => {
  const pace: PaceState = { averageCycleRequests: 12, nextPollAt: T0 };

  it('is due 5 s after the deferral, keeping what cycles cost', () => {
    const now = T0 + 1_234;
    expect(retryDeferredCycle(plan(), pace, now)).toEqual({
      averageCycleRequests: 12,
      nextPollAt: now + 5_000,
    });
  });

  it('is due sooner when the pace’s interval is shorter than that', () => {
    const hot = plan();
    hot.pace = { ...hot.pace, intervalMs: 2_000 };
    expect(retryDeferredCycle(hot, pace, T0).nextPollAt).toBe(T0 + 2_000);
  });
});
