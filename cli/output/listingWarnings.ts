// Tells the user, on stderr, what a listing skipped or found inconsistent, so that output on stdout stays
// machine-readable.
import { describeListingProblem } from '../../shared/api/listingProblem.js';
import type { Listing } from '../../shared/api/pagination.js';
import type { OutputSink } from './outputSink.js';

export function writeListingWarnings(listing: Listing<unknown>, stderr: OutputSink): void {
  for (const problem of listing.problems) stderr.line(`warning: ${describeListingProblem(problem)}`);
}
