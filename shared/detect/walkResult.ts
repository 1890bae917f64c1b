// One walk of a listing in a cycle and what came of it, and when a walk can be trusted for conclusions
// drawn from what it did not hold (pure).
import type { Listing } from '../api/pagination.js';
import type { Order } from '../api/schemas.js';
import type { PlannedWalk } from './listingSpec.js';

export interface WalkResult {
  walk: PlannedWalk;
  listing?: Listing<Order>;
  error?: Error;
}

/** Walked from its first page to its last, every record valid, the pages agreeing with each other. */
export function isTrustworthy(result: WalkResult): boolean {
  const { listing } = result;
  return listing?.complete === true && listing.consistent && listing.fromPage === 1 && !listing.stoppedEarly;
}
