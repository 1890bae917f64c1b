// One walk of a listing in a cycle and what came of it, and when a walk can be trusted for conclusions
// drawn from what it did not hold (pure).
import type { Listing } from '../api/pagination.js';
import type { Order } from '../api/schemas.js';
import type { PlannedWalk } from './listingSpec.js';

export interface WalkResult {
  walk: PlannedWalk;
  listing?: Listing<Order>;
  error?: Error;
  /**
   * A check of a pending listing (listingCheck.ts), not a walk: the orders it did not read but proved still
   * listed. Seen as much as those read, yet not observed (no record, so no change to tell).
   */
  carried?: readonly string[];
}

/** Walked from its first page to its last, every record valid, the pages agreeing with each other. */
export function isTrustworthy(result: WalkResult): boolean {
  const { listing } = result;
  return listing?.complete === true && listing.consistent && listing.fromPage === 1 && !listing.stoppedEarly;
}

/**
 * A trustworthy walk that read every page. Only such a walk marks a date covered (a check can miss an order
 * that came in the middle while another left) and resets the time to the next whole walk.
 */
export function isWholeWalk(result: WalkResult): boolean {
  return isTrustworthy(result) && result.carried === undefined;
}
