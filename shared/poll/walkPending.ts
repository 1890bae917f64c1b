// Phase 3, walk pending: every pending listing the plan holds, most overdue first, within what was reserved.
// A failure that would fail every listing defers the rest. A walk the world moved under (an order came or
// went between its pages) is walked once more at once: absence in it proves nothing, so every departure it
// straddled would otherwise wait a whole cycle to be looked up, the longest part of detection's tail.
import type { PlannedWalk } from '../detect/listingSpec.js';
import type { CycleContext } from './cycleContext.js';
import { afford, stopsCycle, type WalkOutcome, walkListing } from './walkListing.js';

export async function walkPending(
  context: CycleContext,
  detection: readonly PlannedWalk[],
): Promise<WalkOutcome[]> {
  const outcomes: WalkOutcome[] = [];
  for (const walk of detection) {
    const first = await walkListing(context, walk, { stopped: stopsCycle(outcomes) });
    outcomes.push(movedUnderWalk(first) ? await walkAgain(context, first) : first);
  }
  return outcomes;
}

/** Read whole, every record valid, yet the pages disagree: the listing changed while it was read. */
function movedUnderWalk(outcome: WalkOutcome): boolean {
  const { listing } = outcome;
  return listing?.complete === true && !listing.consistent && !listing.stoppedEarly && listing.fromPage === 1;
}

/**
 * The second walk stands for the listing, with both walks' requests. The first one's records are dropped:
 * an order it saw that the second does not has left pending since, and is looked up like any other.
 */
async function walkAgain(context: CycleContext, first: WalkOutcome): Promise<WalkOutcome> {
  // Every page is reserved before the first goes out, so the second walk is not one that waits between
  // its pages for budget, and so moved under again.
  if (!(await afford(context.deps.api.budget, first.listing?.pages ?? 1))) return first;
  const second = await walkListing(context, first.walk, { stopped: false });
  if (!second.listing) return { ...first, requests: first.requests + second.requests };
  return { ...second, requests: first.requests + second.requests };
}
