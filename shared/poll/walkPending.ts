// The poll cycle's walk of pending: every pending listing the plan holds, most overdue first, within what was
// reserved. A failure that would fail every listing defers the rest. A listing the plan says to check
// (today's, or a date of the rest's, between whole walks) is checked (checkListing.ts) rather than walked,
// and walked whole only when the check cannot settle. A walk the world moved under (an order came or went
// between its pages) is walked once more at once: absence in it proves nothing, so every departure it
// straddled would otherwise wait a whole cycle to be looked up, the longest part of detection's tail.
import type { PlannedWalk } from '../detect/listingSpec.js';
import type { Snapshot } from '../detect/snapshot.js';
import { checkListing } from './checkListing.js';
import type { CycleContext } from './cycleContext.js';
import { afford, stopsCycle, type WalkOutcome, walkListing } from './walkListing.js';

export async function walkPending(
  context: CycleContext,
  detection: readonly PlannedWalk[],
  snapshots: ReadonlyMap<string, Snapshot>,
): Promise<WalkOutcome[]> {
  const outcomes: WalkOutcome[] = [];
  for (const walk of detection) {
    const stopped = stopsCycle(outcomes);
    const checked = walk.check && !stopped ? await checkListing(context, walk, walk.check) : undefined;
    if (checked?.stands) {
      outcomes.push(checked.outcome);
      continue;
    }
    const first = await walkListing(context, walk, { stopped });
    const outcome = movedUnderWalk(first) ? await walkAgain(context, first, snapshots) : first;
    // The check's requests count with the walk that replaced it.
    outcomes.push(checked ? { ...outcome, requests: outcome.requests + checked.requests } : outcome);
  }
  return outcomes;
}

/** Read whole, every record valid, yet the pages disagree: the listing changed while it was read. */
function movedUnderWalk(outcome: WalkOutcome): boolean {
  const { listing } = outcome;
  return listing?.complete === true && !listing.consistent && !listing.stoppedEarly && listing.fromPage === 1;
}

/**
 * The second walk stands for the listing, with both walks' requests. An order the first saw and the second
 * does not has left pending since: one already known is looked up like any other absent order, but one
 * that is new was never recorded, and nothing would look for it. It was pending when the first walk read
 * it, so it joins the second walk's records as seen. A second walk that fails says so, as any walk does.
 */
async function walkAgain(
  context: CycleContext,
  first: WalkOutcome,
  snapshots: ReadonlyMap<string, Snapshot>,
): Promise<WalkOutcome> {
  // Every page is reserved before the first goes out, so the second walk is not one that waits between
  // its pages for budget, and so moved under again. Only pages to be had now: a cycle that waited for them
  // would hold back every change it already saw, and the next cycle walks the listing anyway.
  const pages = first.listing?.pages ?? 1;
  const { budget } = context.deps.api;
  if (budget.reserved < pages && (await budget.remaining()) < pages - budget.reserved) return first;
  if (!(await afford(budget, pages))) return first;
  const second = await walkListing(context, first.walk, { stopped: false });
  const requests = first.requests + second.requests;
  if (!second.listing || !first.listing) {
    return { ...first, requests, ...(second.error === undefined ? {} : { error: second.error }) };
  }
  const seen = new Set(second.listing.records.map((order) => order.uuid));
  const newAndGone = first.listing.records.filter(
    (order) => !seen.has(order.uuid) && !snapshots.has(order.uuid),
  );
  if (newAndGone.length === 0) return { ...second, requests };
  return {
    ...second,
    requests,
    listing: { ...second.listing, records: [...second.listing.records, ...newAndGone] },
  };
}
