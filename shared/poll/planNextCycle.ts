// The poll cycle's plan of the next cycle (pure): when it is due, from the pace and what cycles cost on
// average (a burst of look-ups must not push the next cycle away), and never later than the cadence's next
// change.
import { TOKEN_REJECTED_RETRY_MS } from '../contracts/tokenRejected.js';
import { gapFor, plannedCycleRequests } from '../detect/pacePoll.js';
import type { PaceState } from '../store/pollState.js';
import { addChangeSample, type ChangeSample } from './changeRates.js';
import type { CycleContext } from './cycleContext.js';
import { movingAverage } from './movingAverage.js';
import type { CyclePlan } from './planCycle.js';

/** After a cycle deferred for budget, how soon the next one is due. */
const DEFERRED_RETRY_MS = 5_000;

export interface CycleCost {
  /** Requests this cycle made. */
  spent: number;
  /** A baseline pass of the sweep was left for want of room: the next cycle comes once the window holds it. */
  baselineDeferred: boolean;
  /** The API rejected the token: the next cycle is a slow retry, whatever the pace or the cadence. */
  tokenRejected?: boolean;
  /** The changes this cycle found and over how long (changeRates.ts); undefined after a first cycle. */
  changes?: ChangeSample | undefined;
  /** Requests today's listing took, when the cycle read it on its own (today first). */
  todayRequests?: number | undefined;
}

export function planNextCycle(
  context: CycleContext,
  plan: CyclePlan,
  pace: PaceState,
  cost: CycleCost,
): PaceState {
  // A first cycle walks the whole window at once (the silent baseline): not what the cycles after it cost,
  // which is what their gaps pay for. Counted, it kept cycles 12 s apart through the first minutes where
  // they settle 5 s apart: further apart, more changes pile up for each, and each costs more.
  const averageCycleRequests =
    pace.averageCycleRequests === 0
      ? plannedCycleRequests(plan.pace)
      : movingAverage(pace.averageCycleRequests, cost.spent);
  const changes = addChangeSample(pace.changes, cost.changes);
  const todayRequests =
    cost.todayRequests === undefined
      ? pace.todayRequests
      : movingAverage(pace.todayRequests ?? 0, cost.todayRequests);
  const kept = {
    ...(changes === undefined ? {} : { changes }),
    ...(todayRequests === undefined ? {} : { todayRequests }),
  };
  // Whatever the pace or the cadence: no retry within minutes cures a rejected token (tokenRejected.ts).
  if (cost.tokenRejected) {
    return { averageCycleRequests, nextPollAt: context.startedAt + TOKEN_REJECTED_RETRY_MS, ...kept };
  }
  const owed = cost.baselineDeferred ? plan.baselinePages : 0;
  // A cold gap never runs into a hot window.
  const nextPollAt = Math.min(
    context.startedAt + gapFor(plan.pace, averageCycleRequests + owed),
    plan.cadence.changesAt ?? Number.POSITIVE_INFINITY,
  );
  return { averageCycleRequests, nextPollAt, ...kept };
}

/**
 * A cycle the budget could not pay for is due again soon, not a whole interval later: the window frees a
 * little every second, and the organization has already waited its turn once.
 */
export function retryDeferredCycle(plan: CyclePlan, pace: PaceState, now: number): PaceState {
  return { ...pace, nextPollAt: now + Math.min(plan.pace.intervalMs, DEFERRED_RETRY_MS) };
}
