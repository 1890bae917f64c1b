// The poll cycle's refresh of the establishments: GET /establishments when the cache is older than
// MAX_AGE_MS, or sooner when an order names an establishment it lacks. Their closing times drive the cadence
// and the prep summaries, not order detection: what goes wrong here is reported as a listing problem, and
// fails the cycle only when it would fail every listing (a 401, an unreachable API). A record skipped as
// malformed leaves the cache with those read well and names the one it could not read (the cadence is then
// fixed, its prep summaries not sent); a listing not read whole otherwise keeps the old cache.
import { TokenRejectedError } from '../api/errors.js';
import { ESTABLISHMENTS_LISTING, type ListingProblem } from '../api/listingProblem.js';
import type { Order } from '../api/schemas.js';
import type { EstablishmentsCache } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { type CycleNotes, NO_NOTES } from './pollReport.js';
import { afford, asListingFailure, failsEveryListing } from './walkListing.js';

/** How old the cache may grow before a cycle reads GET /establishments again. */
const MAX_AGE_MS = 60 * 60_000;
/**
 * An order naming an establishment the cache lacks refreshes it at once, but not more often than this: an
 * establishment the listing does not show (deleted, hidden) must not cost a request every cycle.
 */
const MIN_AGE_MS = 60_000;
/** The report's name for the establishments listing (deferred, failures, problems). */
const LISTING = ESTABLISHMENTS_LISTING;

export interface EstablishmentsRefresh {
  /** The cache for the rest of the cycle and the next: new, or as it was. */
  cache: EstablishmentsCache;
  /** Requests made; undefined when none was tried. */
  requests?: number;
  notes: CycleNotes;
  /** Failed in a way every later listing would. */
  stopsCycle: boolean;
  /** Failed because the API rejected the token (401 or 403). */
  tokenRejected?: true;
}

export async function refreshEstablishments(
  context: CycleContext,
  cache: EstablishmentsCache,
  observed: Iterable<Order>,
  stopped: boolean,
): Promise<EstablishmentsRefresh> {
  const { deps, startedAt } = context;
  const unchanged: EstablishmentsRefresh = { cache, notes: NO_NOTES, stopsCycle: false };
  const known = new Set(cache?.records.map((record) => record.uuid.toLowerCase()) ?? []);
  const unknown = [...observed].some((order) => !known.has(order.establishment.uuid.toLowerCase()));
  const age = cache === null ? Number.POSITIVE_INFINITY : startedAt - cache.fetchedAt;
  if (age < MAX_AGE_MS && !(unknown && age >= MIN_AGE_MS)) return unchanged;
  const { budget } = deps.api;
  // A cycle already stopped by a failure every listing shares (a rejected token, an unreachable API) says
  // only that failure: the refresh is not deferred for budget, it is simply not tried.
  if (stopped) return unchanged;
  if (!(await afford(budget, 1))) return { ...unchanged, notes: { ...NO_NOTES, deferred: [LISTING] } };
  const requestsBefore = deps.api.requestCount;
  const requests = () => deps.api.requestCount - requestsBefore;
  try {
    const listing = await deps.api.listEstablishments({
      listing: LISTING,
      mayContinue: async ({ page, lastPage }) => afford(budget, (lastPage ?? page) - page + 1),
    });
    if (!listing.consistent || listing.stoppedEarly) {
      // Not trusted as the whole list: closing times as last read. Its problems say why; a walk the budget
      // stopped is read again next cycle (the cache's age has not moved).
      return {
        ...unchanged,
        requests: requests(),
        notes: {
          ...NO_NOTES,
          problems: listing.problems,
          deferred: listing.stoppedEarly ? [LISTING] : [],
        },
      };
    }
    return {
      cache: {
        fetchedAt: startedAt,
        records: listing.records,
        ...(listing.skipped.length === 0
          ? {}
          : {
              unreadable: listing.skipped.map(({ uuid, page, index, problem }) => ({
                ...(uuid === undefined ? {} : { uuid }),
                page,
                detail: `record #${index} on the page: ${problem}`,
              })),
            }),
      },
      requests: requests(),
      notes: { ...NO_NOTES, problems: listing.problems },
      stopsCycle: false,
    };
  } catch (thrown) {
    const error = asListingFailure(context, LISTING, thrown);
    if (failsEveryListing(error)) {
      return {
        ...unchanged,
        requests: requests(),
        notes: {
          ...NO_NOTES,
          // The failure line every command prints for it (the runtime's describeFailure), then what it cost.
          failures: [
            `${deps.describeFailure?.(error) ?? error.message} (establishments not refreshed; closing times as last read)`,
          ],
        },
        stopsCycle: true,
        ...(error instanceof TokenRejectedError ? { tokenRejected: true as const } : {}),
      };
    }
    const problem: ListingProblem = {
      kind: 'unread_listing',
      listing: LISTING,
      page: 1,
      detail: `${error.message}; closing times as last read`,
    };
    return { ...unchanged, requests: requests(), notes: { ...NO_NOTES, problems: [problem] } };
  }
}
