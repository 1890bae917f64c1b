// The slow sweep of the terminal listings (pure). Look-ups from pending catch most transitions at once; the
// sweep is for what they cannot see: completed or canceled orders being archived, and orders that never
// showed in pending. What a terminal listing shows is fact, and nothing is concluded from what it does not
// show, so the sweep reads a few pages per cycle and the next cycle resumes where it stopped. One full pass
// over every listing bounds how late those transitions are seen. The exception is the first pass over
// completed and canceled: it is the baseline, and orders leave those listings while they are read, which
// moves later ones back across a page already read; so that no order escapes it, that pass is walked one
// pickup date at a time, each date whole and consistent (an order's pickup date does not change once it is
// resolved, so no order crosses from a date not yet read into one already read). A date a cycle at the
// steady share cannot pay for yet waits for its credit, so a start is not followed by a minute spent on the
// sweep. The archived listing only ever gains orders, so reading it forward skips none.
import type { OrderStatus } from '../api/schemas.js';
import { addDays } from '../time/calendarDate.js';
import { type ListingSpec, listingKey, type PlannedWalk, pagesFor, partOf } from './listingSpec.js';

export const TERMINAL_STATUSES: readonly OrderStatus[] = ['completed', 'canceled', 'archived'];

export interface SweepProgress {
  /** The listing being swept, by its key (`completed`, `archived@<est>`). */
  key: string;
  /** The page the next cycle resumes at. */
  nextPage: number;
  /** When this pass over the listing began (epoch ms). */
  startedAt: number;
  /** In a baseline pass, the pickup date the next cycle reads whole. */
  nextDate?: string | undefined;
  /** In a baseline pass, the orders the last date read held: the next date's likely size. */
  dateSize?: number | undefined;
}

export interface SweepPlanInput {
  /** Terminal statuses whose events are announced: the only ones worth sweeping. */
  statuses: readonly OrderStatus[];
  startDate: string;
  endDate: string;
  /** Configured establishments, listed apart; undefined lists them all at once. */
  establishments: readonly string[] | undefined;
  progress: SweepProgress | null;
  /** When each listing's last complete pass began, by key. */
  sweptAt: Readonly<Record<string, number>>;
  /** `meta.total` of each listing when last seen, by key. */
  knownSizes: Readonly<Record<string, number>>;
  /** Pages this cycle may spend on the sweep. */
  pages: number;
  now: number;
}

/** Every listing a full sweep reads. */
export function sweepListings(
  input: Pick<SweepPlanInput, 'statuses' | 'startDate' | 'endDate' | 'establishments'>,
): ListingSpec[] {
  return input.statuses
    .filter((status) => TERMINAL_STATUSES.includes(status))
    .flatMap((status) =>
      (input.establishments ?? [undefined]).map(
        (establishment): ListingSpec => ({
          kind: 'window',
          status,
          startDate: input.startDate,
          endDate: input.endDate,
          establishment,
        }),
      ),
    );
}

/** Pages one full sweep reads, from what is known of each listing's size. */
export function sweepPages(
  input: Pick<SweepPlanInput, 'statuses' | 'startDate' | 'endDate' | 'establishments' | 'knownSizes'>,
): number {
  return sweepListings(input).reduce(
    (sum, listing) => sum + pagesFor(input.knownSizes[listingKey(listing)]),
    0,
  );
}

/** Whether a listing's next pass is its baseline, to be walked whole in one cycle. */
export function isBaselinePass(listing: ListingSpec, sweptAt: Readonly<Record<string, number>>): boolean {
  return listing.status !== 'archived' && sweptAt[listingKey(listing)] === undefined;
}

/** Pages one full sweep reads, or null while a listing's size is unknown (its baseline has not read it yet). */
export function knownSweepPages(
  input: Pick<SweepPlanInput, 'statuses' | 'startDate' | 'endDate' | 'establishments' | 'knownSizes'>,
): number | null {
  const listings = sweepListings(input);
  if (listings.some((listing) => input.knownSizes[listingKey(listing)] === undefined)) return null;
  return sweepPages(input);
}

/**
 * This cycle's pages of the sweep: the listing in progress from its next page, or else the one whose last
 * pass is oldest, from its first; in a baseline pass, its next pickup date whole. None when the cycle cannot
 * pay for a page.
 */
export function planSweep(input: SweepPlanInput): { walk: PlannedWalk; progress: SweepProgress } | undefined {
  const pages = Math.floor(input.pages);
  const listings = sweepListings(input);
  if (listings.length === 0) return undefined;
  const current = input.progress && listings.find((listing) => listingKey(listing) === input.progress?.key);
  const listing =
    current ??
    [...listings].sort(
      (a, b) => (input.sweptAt[listingKey(a)] ?? -1) - (input.sweptAt[listingKey(b)] ?? -1),
    )[0];
  if (!listing) return undefined;
  const key = listingKey(listing);
  if (pages < 1) return undefined;
  if (isBaselinePass(listing, input.sweptAt))
    return baselineDate(input, listing, current ? input.progress : null);
  const progress: SweepProgress =
    current && input.progress ? input.progress : { key, nextPage: 1, startedAt: input.now };
  return {
    walk: {
      listing,
      key,
      purpose: 'sweep',
      fromPage: progress.nextPage,
      maxPages: pages,
      estimatedRequests: pages,
    },
    progress,
  };
}

/**
 * The next pickup date of a baseline pass, walked whole: the caller pays for all of it or leaves it for a
 * cycle that can. A date's size is guessed from the listing's, spread evenly, until its first page tells.
 */
function baselineDate(
  input: SweepPlanInput,
  listing: ListingSpec,
  progress: SweepProgress | null,
): { walk: PlannedWalk; progress: SweepProgress } {
  const key = listingKey(listing);
  // A paged pass in progress over a listing never baselined (a state from before baselines went by date)
  // starts the baseline afresh.
  const resumed = progress?.nextDate;
  const date = resumed !== undefined && resumed > input.startDate ? resumed : input.startDate;
  const part = partOf(listing, date, date);
  const partKey = listingKey(part);
  const whole = input.knownSizes[key];
  const days = Math.max(1, dayCount(input.startDate, input.endDate));
  const size =
    input.knownSizes[partKey] ??
    (resumed === undefined ? undefined : progress?.dateSize) ??
    (whole === undefined ? undefined : Math.ceil(whole / days));
  return {
    walk: {
      listing: part,
      key: partKey,
      purpose: 'sweep',
      fromPage: 1,
      maxPages: undefined,
      estimatedRequests: pagesFor(size),
    },
    progress: {
      key,
      nextPage: 1,
      startedAt: resumed === undefined ? input.now : (progress?.startedAt ?? input.now),
      nextDate: date,
    },
  };
}

/** The baseline's progress after `date` was read whole: the next date, or null once the window's end is read. */
export function baselineAfter(
  progress: SweepProgress,
  date: string,
  endDate: string,
  dateSize: number | undefined,
): SweepProgress | null {
  if (date >= endDate) return null;
  return { ...progress, nextDate: addDays(date, 1), ...(dateSize === undefined ? {} : { dateSize }) };
}

function dayCount(startDate: string, endDate: string): number {
  let days = 0;
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) days += 1;
  return days;
}
