// Where to look for orders that left a completely walked pending listing (pure): one narrow listing per
// status, pickup date and establishment, the likeliest status first, so that most look-ups are one page
// and one round. `statuses` in the config decides what is announced, never where we look.
import type { OrderStatus } from '../api/schemas.js';
import { type ListingSpec, listingKey, type PlannedWalk, pagesFor } from './listingSpec.js';

/** An order missing from a listing that was walked completely, as its snapshot remembers it. */
export interface VanishedOrder {
  uuid: string;
  pickupDate: string;
  /** The status it had when last seen. */
  status: string;
  establishment: string;
}

/**
 * Where an order that left a status went, likeliest first: a pending order is mostly completed, sometimes
 * canceled, rarely archived at once; a completed or canceled one is archived.
 */
export function resolutionOrder(from: string): readonly OrderStatus[] {
  switch (from) {
    case 'pending':
      return ['completed', 'canceled', 'archived'];
    case 'completed':
      return ['archived', 'canceled', 'pending'];
    case 'canceled':
      return ['archived', 'completed', 'pending'];
    default:
      return ['completed', 'canceled', 'archived', 'pending'];
  }
}

export interface ResolutionRoundInput {
  /** Vanished orders not found yet. */
  unresolved: readonly VanishedOrder[];
  /** Statuses each order was already looked for in, completely, this cycle (its own included). */
  searched: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Statuses an order still unresolved was looked for in by earlier cycles: tried last this time, so that
   * a look-up that keeps missing does not take every cycle's budget before the others get any.
   */
  searchedBefore?: ReadonlyMap<string, readonly string[]>;
  /** Orders we know of by (status, pickup date, establishment) key: the narrow listing's likely size. */
  sizeOf: (listing: ListingSpec) => number;
}

/**
 * The next round of look-ups: for each unresolved order, the likeliest status it was not yet looked for
 * in, grouped so that orders sharing a date and establishment share one listing. Empty when every order
 * was looked for everywhere.
 */
export function planResolutionRound(input: ResolutionRoundInput): PlannedWalk[] {
  const walks = new Map<string, PlannedWalk>();
  for (const order of input.unresolved) {
    const searched = input.searched.get(order.uuid);
    const before = input.searchedBefore?.get(order.uuid) ?? [];
    const likeliest = resolutionOrder(order.status);
    const ordered = [
      ...likeliest.filter((status) => !before.includes(status)),
      ...likeliest.filter((status) => before.includes(status)),
    ];
    const status = ordered.find((candidate) => candidate !== order.status && !searched?.has(candidate));
    if (status === undefined) continue;
    const listing: ListingSpec = {
      kind: 'narrow',
      status,
      startDate: order.pickupDate,
      endDate: order.pickupDate,
      establishment: order.establishment,
    };
    const key = listingKey(listing);
    if (walks.has(key)) continue;
    walks.set(key, {
      listing,
      key,
      purpose: 'resolve',
      fromPage: 1,
      maxPages: undefined,
      estimatedRequests: pagesFor(input.sizeOf(listing)),
    });
  }
  return [...walks.values()].sort((a, b) => a.key.localeCompare(b.key));
}
