// The poll cycle's sweep: this cycle's pages of the slow sweep of the terminal listings, from what is left of
// the reservation. The sweep fills the cycle up to what a cycle is planned to cost, so that cycles cost alike
// and the gaps between them stay even; when look-ups took its room, what it is owed waits for a later cycle.
import { pagesFor, tooLargeToWalk } from '../detect/listingSpec.js';
import { baselineAfter } from '../detect/planSweep.js';
import { isTrustworthy } from '../detect/walkResult.js';
import type { PollState, SweepState } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { ListingTooLargeError } from './errors.js';
import { planSweepPages } from './planCycle.js';
import { type WalkOutcome, walkListing } from './walkListing.js';

export interface SweepInput {
  /** Pages the plan gives the sweep this cycle. */
  sweepBudget: number;
  /** Requests left of what the cycle is planned to cost. */
  room: number;
  /**
   * What every cycle needs before the sweep, pending's pages and the look-ups it reserves for: a baseline
   * date must fit in a minute beside them, or it would be deferred cycle after cycle.
   */
  ahead: number;
  stopped: boolean;
}

export interface SweepSlice {
  outcome?: WalkOutcome;
  /** The baseline dates walked after the first, when the cycle's share held more than one. */
  further?: WalkOutcome[];
  /** The record for the next cycle: where the sweep stands, and the pages it is still owed. */
  sweep: SweepState;
  /** A baseline pass was due but did not fit what is left of the reservation. */
  baselineDeferred: boolean;
  /** A baseline date no walk can read whole, left out of the baseline (the pass goes on to the next). */
  tooLarge?: ListingTooLargeError;
}

/** Most baseline dates one cycle reads: a cold cycle's whole sweep holds a window's every date. */
const MAX_BASELINE_DATES = 64;

export async function sweepTerminal(
  context: CycleContext,
  state: Pick<PollState, 'sweep' | 'listings'>,
  input: SweepInput,
): Promise<SweepSlice> {
  const first = await sweepOnce(context, state, input);
  const further: WalkOutcome[] = [];
  let slice = first;
  let room = input.room - (first.outcome?.requests ?? 0);
  // A baseline date read well, and the share holds more: the next date goes in the same cycle.
  while (
    further.length < MAX_BASELINE_DATES &&
    slice.outcome?.walk.maxPages === undefined &&
    slice.outcome !== undefined &&
    isTrustworthy(slice.outcome) &&
    slice.sweep.inProgress?.nextDate !== undefined &&
    slice.sweep.credit >= 1 &&
    room >= 1
  ) {
    slice = await sweepOnce(
      context,
      { ...state, sweep: slice.sweep },
      { ...input, sweepBudget: slice.sweep.credit, room },
    );
    if (!slice.outcome) break;
    further.push(slice.outcome);
    room -= slice.outcome.requests;
  }
  if (further.length === 0) return first;
  // Reading goes on only past dates read well: only the last may have been one too large.
  return {
    ...first,
    further,
    sweep: slice.sweep,
    baselineDeferred: slice.baselineDeferred,
    ...(slice.tooLarge ? { tooLarge: slice.tooLarge } : {}),
  };
}

async function sweepOnce(
  context: CycleContext,
  state: Pick<PollState, 'sweep' | 'listings'>,
  input: SweepInput,
): Promise<SweepSlice> {
  const { budget } = context.deps.api;
  // A baseline date may take more than the cycle's share: the excess is owed back by the next cycles.
  const owed = (swept: number): SweepState['credit'] => input.sweepBudget - swept;
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
    const date = planned.walk.listing.endDate;
    // The pass goes on to the next date, and is done once its last date is.
    const onToNext = (dateSize: number | undefined): SweepState => {
      const next = baselineAfter(planned.progress, date, context.window.endDate, dateSize);
      const sweptAt = next === null ? { ...state.sweep.sweptAt, [key]: startedAt } : state.sweep.sweptAt;
      return { inProgress: next, sweptAt, credit };
    };
    const pages = pagesFor(outcome.listing?.total);
    // A date longer than what a minute holds beside pending is never read whole: the pass goes on without
    // it, and says so; the steady passes after the baseline read it page by page.
    const room = budget.usablePerMinute - input.ahead;
    if (outcome.listing && !isTrustworthy(outcome) && tooLargeToWalk(pages, room)) {
      return {
        outcome,
        sweep: onToNext(undefined),
        baselineDeferred: false,
        tooLarge: new ListingTooLargeError(
          context.organization.name,
          planned.walk.key,
          pages,
          { usablePerMinute: budget.usablePerMinute, room },
          'sweep',
        ),
      };
    }
    // A baseline date counts only whole and consistent; otherwise it is walked again next time, planned at
    // the size its first page told (else at the guess that fell short, cut after a page cycle after
    // cycle).
    if (!isTrustworthy(outcome)) {
      const total = outcome.listing?.total;
      return {
        outcome,
        sweep: {
          ...state.sweep,
          inProgress: { ...planned.progress, ...(total === undefined ? {} : { dateSize: total }) },
          credit,
        },
        baselineDeferred: false,
      };
    }
    return { outcome, sweep: onToNext(outcome.listing?.total), baselineDeferred: false };
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
