// Tells the user, on stderr, what a listing skipped or found inconsistent, so that output on stdout stays
// machine-readable.
import { describeListingProblem } from '../../shared/api/listingProblem.js';
import type { Listing } from '../../shared/api/pagination.js';

export function writeListingWarnings(listing: Listing<unknown>, stderr: NodeJS.WritableStream): void {
  for (const problem of listing.problems) stderr.write(`warning: ${describeListingProblem(problem)}\n`);
}
