// The slow sweep of the terminal listings (pure). Look-ups from pending catch most transitions at once; the
// sweep is for what they cannot see: completed or canceled orders being archived, and orders that never
// showed in pending. What a terminal listing shows is fact, and nothing is concluded from what it does not
// show, so the sweep reads a few pages per cycle and the next cycle resumes where it stopped. One full pass
// over every listing bounds how late those transitions are seen. The exception is the first pass over
// completed and canceled: it is the baseline, and orders leave those listings while they are read, which
// moves later ones back across a page already read; so that no order escapes it, that pass is one whole,
// consistent walk. The archived listing only ever gains orders, so reading it forward skips none.
import type { OrderStatus } from '../api/schemas.js';
import { type ListingSpec, listingKey, type PlannedWalk, pagesFor } from './listingSpec.js';

export const TERMINAL_STATUSES: readonly OrderStatus[] = ['completed', 'canceled', 'archived'];

export interface SweepProgress {
  /** The listing being swept, by its key (`completed`, `archived@<est>`). */
  key: string;
  /** The page the next cycle resumes at. */
  nextPage: number;
  /** When this pass over the listing began (epoch ms). */
  startedAt: number;
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

/**
 * This cycle's pages of the sweep: the listing in progress from its next page, or else the one whose last
 * pass is oldest, from its first; a baseline pass whole. None when the cycle cannot pay for a page of a
 * pass that is not a baseline.
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
  // A baseline pass is planned whatever this cycle may spend: the caller sees its size and pays for it
  // whole, or leaves it for a cycle that can.
  if (isBaselinePass(listing, input.sweptAt)) {
    const whole = pagesFor(input.knownSizes[key]);
    return {
      walk: { listing, key, purpose: 'sweep', fromPage: 1, maxPages: undefined, estimatedRequests: whole },
      progress: { key, nextPage: 1, startedAt: input.now },
    };
  }
  if (pages < 1) return undefined;
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
