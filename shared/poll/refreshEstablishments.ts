// Phase 5, refresh the establishments: GET /establishments when the cache is an hour old, or sooner when an
// order names an establishment it lacks. Their closing times drive the cadence and the prep summaries. A
// failure keeps the old cache and is reported.
import type { Order } from '../api/schemas.js';
import type { EstablishmentsCache } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { type CycleNotes, NO_NOTES } from './pollReport.js';
import { afford, failsEveryListing } from './walkListing.js';

/** How old the cache may grow before a cycle reads GET /establishments again. */
const MAX_AGE_MS = 60 * 60_000;
/**
 * An order naming an establishment the cache lacks refreshes it at once, but not more often than this: an
 * establishment the listing does not show (deleted, hidden) must not cost a request every cycle.
 */
const MIN_AGE_MS = 60_000;
/** The report's name for the establishments listing (deferred, failures). */
const LISTING = 'establishments';

export interface EstablishmentsRefresh {
  /** The cache for the rest of the cycle and the next: new, or as it was. */
  cache: EstablishmentsCache;
  /** Requests made; undefined when none was tried. */
  requests?: number;
  notes: CycleNotes;
  /** Failed in a way every later listing would. */
  stopsCycle: boolean;
}

export async function refreshEstablishments(
  context: CycleContext,
  cache: EstablishmentsCache,
  observed: Iterable<Order>,
  stopped: boolean,
): Promise<EstablishmentsRefresh> {
  const { deps, organization, startedAt } = context;
  const unchanged: EstablishmentsRefresh = { cache, notes: NO_NOTES, stopsCycle: false };
  const known = new Set(cache?.records.map((record) => record.uuid.toLowerCase()) ?? []);
  const unknown = [...observed].some((order) => !known.has(order.establishment.uuid.toLowerCase()));
  const age = cache === null ? Number.POSITIVE_INFINITY : startedAt - cache.fetchedAt;
  if (age < MAX_AGE_MS && !(unknown && age >= MIN_AGE_MS)) return unchanged;
  const { budget } = deps.api;
  if (stopped || !(await afford(budget, 1)))
    return { ...unchanged, notes: { ...NO_NOTES, deferred: [LISTING] } };
  const failed = (why: string, problems: CycleNotes['problems'] = []): CycleNotes => ({
    ...NO_NOTES,
    problems,
    failures: [`${organization.name}: establishments not refreshed (${why}); closing times as last read`],
  });
  const requestsBefore = deps.api.requestCount;
  const requests = () => deps.api.requestCount - requestsBefore;
  try {
    const listing = await deps.api.listEstablishments({
      listing: LISTING,
      mayContinue: async ({ page, lastPage }) => afford(budget, (lastPage ?? page) - page + 1),
    });
    if (!listing.complete || !listing.consistent || listing.stoppedEarly) {
      return {
        ...unchanged,
        requests: requests(),
        notes: failed('the listing could not be read whole', listing.problems),
      };
    }
    return {
      cache: { fetchedAt: startedAt, records: listing.records },
      requests: requests(),
      notes: { ...NO_NOTES, problems: listing.problems },
      stopsCycle: false,
    };
  } catch (error) {
    return {
      ...unchanged,
      requests: requests(),
      notes: failed((error as Error).message),
      stopsCycle: failsEveryListing(error),
    };
  }
}
