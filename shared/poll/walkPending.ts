// Phase 3, walk pending: every pending listing the plan holds, most overdue first, within what was reserved.
// A failure that would fail every listing defers the rest.
import type { PlannedWalk } from '../detect/listingSpec.js';
import type { CycleContext } from './cycleContext.js';
import { stopsCycle, type WalkOutcome, walkListing } from './walkListing.js';

export async function walkPending(
  context: CycleContext,
  detection: readonly PlannedWalk[],
): Promise<WalkOutcome[]> {
  const outcomes: WalkOutcome[] = [];
  for (const walk of detection) {
    outcomes.push(await walkListing(context, walk, { stopped: stopsCycle(outcomes) }));
  }
  return outcomes;
}
