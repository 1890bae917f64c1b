// The poll cycle's sweep: this cycle's pages of the slow sweep of the terminal listings, from what is left of
// the reservation. The sweep fills the cycle up to what a cycle is planned to cost, so that cycles cost alike
// and the gaps between them stay even; when look-ups took its room, what it is owed waits for a later cycle.
import { isTrustworthy } from '../detect/walkResult.js';
import type { PollState, SweepState } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { planSweepPages } from './planCycle.js';
import { type WalkOutcome, walkListing } from './walkListing.js';

export interface SweepInput {
  /** Pages the plan gives the sweep this cycle. */
  sweepBudget: number;
  /** Requests left of what the cycle is planned to cost. */
  room: number;
  stopped: boolean;
}

export interface SweepSlice {
  outcome?: WalkOutcome;
  /** The record for the next cycle: where the sweep stands, and the pages it is still owed. */
  sweep: SweepState;
  /** A baseline pass was due but did not fit what is left of the reservation. */
  baselineDeferred: boolean;
}

export async function sweepTerminal(
  context: CycleContext,
  state: Pick<PollState, 'sweep' | 'listings'>,
  input: SweepInput,
): Promise<SweepSlice> {
  const { budget } = context.deps.api;
  const owed = (swept: number): SweepState['credit'] => Math.max(0, input.sweepBudget - swept);
  const untouched = { sweep: { ...state.sweep, credit: owed(0) }, baselineDeferred: false };
  const planned = planSweepPages(context, state, Math.min(input.sweepBudget, input.room, budget.reserved));
  if (!planned || input.stopped) return untouched;
  const baseline = planned.walk.maxPages === undefined;
  // A baseline pass goes only when the reservation holds all of it.
  if (baseline && budget.reserved < planned.walk.estimatedRequests)
    return { ...untouched, baselineDeferred: true };
  const outcome = await walkListing(context, planned.walk, { stopped: false });
  const { key, startedAt } = planned.progress;
  const credit = owed(outcome.requests);
  if (baseline) {
    // A baseline pass counts only whole and consistent; otherwise it is walked again next time.
    const sweptAt = isTrustworthy(outcome)
      ? { ...state.sweep.sweptAt, [key]: startedAt }
      : state.sweep.sweptAt;
    return { outcome, sweep: { inProgress: null, sweptAt, credit }, baselineDeferred: false };
  }
  if (!outcome.listing) return { outcome, sweep: { ...state.sweep, credit }, baselineDeferred: false };
  const done = !outcome.listing.stoppedEarly;
  return {
    outcome,
    sweep: {
      inProgress: done
        ? null
        : { ...planned.progress, nextPage: outcome.listing.fromPage + outcome.listing.pages },
      sweptAt: done ? { ...state.sweep.sweptAt, [key]: startedAt } : state.sweep.sweptAt,
      credit,
    },
    baselineDeferred: false,
  };
}
