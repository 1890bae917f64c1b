// The poll cycle's check of a pending listing (today's, or a date of the rest of the window): the pages
// listingCheck.ts asks for, one at a time, within what was reserved. Settled, it stands for the listing's
// walk: the orders read are seen, the unread ones it accounted for are carried, and absence in it proves
// what a whole walk's would. Anything it cannot settle (the total moved between its pages, a page out of
// our order, an invalid record, no budget for the next page) leaves the listing to a whole walk in the
// same cycle, with what the check spent.

import type { Order } from '../api/schemas.js';
import { isListedAsWePredict } from '../detect/listedOrder.js';
import { decideCheck, firstCheckPage, type PageRead } from '../detect/listingCheck.js';
import { type PlannedWalk, pagesFor } from '../detect/listingSpec.js';
import type { CycleContext } from './cycleContext.js';
import { type WalkOutcome, walkListing } from './walkListing.js';

export type CheckOutcome = { stands: true; outcome: WalkOutcome } | { stands: false; requests: number };

export async function checkListing(
  context: CycleContext,
  walk: PlannedWalk,
  known: readonly string[],
): Promise<CheckOutcome> {
  const reads: PageRead[] = [];
  const records = new Map<string, Order>();
  let total: number | undefined;
  let requests = 0;
  let page = firstCheckPage(known);
  // Never more pages than a whole walk would take: each read settles at least one page's stretch.
  const most = Math.max(page, walk.estimatedRequests) + 1;
  while (reads.length < most) {
    const read = await walkListing(context, { ...walk, fromPage: page, maxPages: 1 }, { stopped: false });
    requests += read.requests;
    // A failed page fails the listing as a failed walk would: the cycle says so, and absence proves nothing.
    if (read.error) return { stands: true, outcome: { ...read, requests } };
    const listing = read.listing;
    if (read.deferred || !listing?.complete || listing.total === undefined)
      return { stands: false, requests };
    if ((total !== undefined && listing.total !== total) || !isListedAsWePredict(listing.records)) {
      return { stands: false, requests };
    }
    total = listing.total;
    reads.push({ page, uuids: listing.records.map((order) => order.uuid) });
    for (const order of listing.records) records.set(order.uuid, order);
    const decision = decideCheck(known, total, reads);
    if (decision.kind === 'unsettled') return { stands: false, requests };
    if (decision.kind === 'read') {
      if (reads.some((done) => done.page === decision.page)) return { stands: false, requests };
      page = decision.page;
      continue;
    }
    const seen = decision.listed.map((uuid) => records.get(uuid)).filter((order) => order !== undefined);
    return {
      stands: true,
      outcome: {
        walk,
        deferred: false,
        requests,
        carried: decision.carried,
        listing: {
          records: seen,
          skipped: [],
          pages: reads.length,
          total,
          lastPage: pagesFor(total),
          fromPage: 1,
          stoppedEarly: false,
          complete: true,
          consistent: true,
          problems: [],
        },
      },
    };
  }
  return { stands: false, requests };
}
