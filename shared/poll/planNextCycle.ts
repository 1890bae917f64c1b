// The poll cycle's plan of the next cycle (pure): when it is due, from the pace and what cycles cost on
// average (a burst of look-ups must not push the next cycle away), and never later than the cadence's next
// change.
import { TOKEN_REJECTED_RETRY_MS } from '../contracts/tokenRejected.js';
import { gapFor } from '../detect/pacePoll.js';
import type { PaceState } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { blend, movingAverage } from './movingAverage.js';
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
  /** Changes this cycle found to today's orders and to other days'. */
  changes?: { today: number; elsewhere: number };
}

export function planNextCycle(
  context: CycleContext,
  plan: CyclePlan,
  pace: PaceState,
  cost: CycleCost,
): PaceState {
  const averageCycleRequests = movingAverage(pace.averageCycleRequests, cost.spent);
  const changes = changeMix(pace.changes, cost.changes);
  const kept = changes === undefined ? {} : { changes };
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

/** The moving averages of changes found, once a cycle found any: a quiet start says nothing of the mix. */
function changeMix(average: PaceState['changes'], latest: CycleCost['changes']): PaceState['changes'] {
  if (latest === undefined) return average;
  if (average === undefined) {
    return latest.today + latest.elsewhere > 0 ? { ...latest } : undefined;
  }
  return {
    today: blend(average.today, latest.today),
    elsewhere: blend(average.elsewhere, latest.elsewhere),
  };
}

/**
 * A cycle the budget could not pay for is due again soon, not a whole interval later: the window frees a
 * little every second, and the organization has already waited its turn once.
 */
export function retryDeferredCycle(plan: CyclePlan, pace: PaceState, now: number): PaceState {
  return { ...pace, nextPollAt: now + Math.min(plan.pace.intervalMs, DEFERRED_RETRY_MS) };
}
