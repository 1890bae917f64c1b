// The slow sweep of the terminal listings (pure): completed, canceled and archived walked in full, a few
// pages per cycle, resumed where the last cycle stopped. Look-ups from pending find most transitions at
// once; the sweep is for what they cannot see: orders that never passed through pending, and completed or
// canceled orders being archived. What a sweep shows is fact; what it misses, the next sweep shows.
import type { OrderStatus } from '../api/schemas.js';
import { type ListingSpec, listingKey, type PlannedWalk, pagesFor } from './listingSpec.js';

export interface SweepProgress {
  /** The listing being swept. */
  key: string;
  nextPage: number;
  /** When this sweep of it began (epoch ms). */
  startedAt: number;
}

export interface SweepPlanInput {
  /** Terminal statuses whose events are announced: the only ones worth sweeping. */
  statuses: readonly OrderStatus[];
  startDate: string;
  endDate: string;
  establishments: readonly string[] | undefined;
  progress: SweepProgress | null;
  /** When each listing's last complete sweep began, by key. */
  sweptAt: Readonly<Record<string, number>>;
  knownSizes: Readonly<Record<string, number>>;
  /** Pages this cycle may spend on the sweep. */
  pages: number;
  now: number;
}

export const TERMINAL_STATUSES: readonly OrderStatus[] = ['completed', 'canceled', 'archived'];

/** Every listing a full sweep walks. */
export function sweepListings(input: Pick<SweepPlanInput, 'statuses' | 'startDate' | 'endDate' | 'establishments'>): ListingSpec[] {
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

/** Pages one full sweep takes, from what is known of each listing's size. */
export function sweepPages(input: Pick<SweepPlanInput, 'statuses' | 'startDate' | 'endDate' | 'establishments' | 'knownSizes'>): number {
  return sweepListings(input).reduce((sum, listing) => sum + pagesFor(input.knownSizes[listingKey(listing)]), 0);
}

/** This cycle's slice of the sweep, and the progress it starts from; none when there is nothing to sweep. */
export function planSweep(input: SweepPlanInput): { walk: PlannedWalk; progress: SweepProgress } | undefined {
  const pages = Math.floor(input.pages);
  const listings = sweepListings(input);
  if (pages < 1 || listings.length === 0) return undefined;
  const current = input.progress && listings.find((listing) => listingKey(listing) === input.progress?.key);
  const listing =
    current ??
    [...listings].sort((a, b) => (input.sweptAt[listingKey(a)] ?? -1) - (input.sweptAt[listingKey(b)] ?? -1))[0];
  if (!listing) return undefined;
  const key = listingKey(listing);
  const progress: SweepProgress =
    current && input.progress ? input.progress : { key, nextPage: 1, startedAt: input.now };
  const left = pagesFor(input.knownSizes[key]) - progress.nextPage + 1;
  const maxPages = Math.max(1, Math.min(pages, left));
  return {
    walk: { listing, key, purpose: 'sweep', fromPage: progress.nextPage, maxPages, estimatedRequests: maxPages },
    progress,
  };
}
