// What the walks learned of each listing, kept between cycles so the next plan knows how long a listing
// is and when it was last walked whole (pure). Only whole-window listings and pending's parts are
// remembered: look-ups and sweep parts are sized from the snapshots, and remembering each would grow the state.
import * as z from 'zod';
import { isListedAsWePredict } from './listedOrder.js';
import { listingKeyEndDate } from './listingSpec.js';
import { isWholeWalk, type WalkResult } from './walkResult.js';

export const ListingMemorySchema = z.object({
  /** Orders each listing held when last seen (`meta.total` of its first page, even of a walk cut short), by listing key. */
  sizes: z.record(z.string(), z.number().int().nonnegative()),
  /**
   * When each listing was last walked whole, completely and consistently (epoch ms), by listing key; a check
   * (listingCheck.ts) is not a walk whole.
   */
  walkedAt: z.record(z.string(), z.number()),
  /**
   * Listings whose last whole walk did not come in the order we predict (pickup date, creation time, uuid):
   * a check needs that order, so these are walked whole. Absent in states written before it was kept.
   */
  unpredicted: z.array(z.string()).optional(),
});
export type ListingMemory = z.infer<typeof ListingMemorySchema>;

/** The memory after walks that began `at`, in the order they were walked. */
export function rememberWalks(
  memory: ListingMemory,
  walks: readonly WalkResult[],
  at: number,
): ListingMemory {
  const sizes = { ...memory.sizes };
  const walkedAt = { ...memory.walkedAt };
  const unpredicted = new Set(memory.unpredicted ?? []);
  for (const result of walks) {
    const { walk, listing } = result;
    if (!listing) continue;
    if (walk.listing.kind === 'narrow' || (walk.listing.kind === 'part' && walk.purpose === 'sweep'))
      continue;
    if (listing.total !== undefined) sizes[walk.key] = listing.total;
    if (!isWholeWalk(result)) continue;
    walkedAt[walk.key] = at;
    if (walk.purpose !== 'detect') continue;
    // Only the listing's own records: a walk again appends those the first walk saw and it did not.
    if (isListedAsWePredict(listing.records.slice(0, listing.total))) unpredicted.delete(walk.key);
    else unpredicted.add(walk.key);
  }
  return { sizes, walkedAt, ...(unpredicted.size === 0 ? {} : { unpredicted: [...unpredicted] }) };
}

/** Forgets the parts of listings whose dates ended before `windowStart`. */
export function forgetListingsBefore(memory: ListingMemory, windowStart: string): ListingMemory {
  const current = (record: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(record).filter(([key]) => (listingKeyEndDate(key) ?? windowStart) >= windowStart),
    );
  const unpredicted = memory.unpredicted?.filter(
    (key) => (listingKeyEndDate(key) ?? windowStart) >= windowStart,
  );
  return {
    sizes: current(memory.sizes),
    walkedAt: current(memory.walkedAt),
    ...(unpredicted === undefined || unpredicted.length === 0 ? {} : { unpredicted }),
  };
}
