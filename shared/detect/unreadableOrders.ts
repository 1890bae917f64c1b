// Which orders' records have been unreadable, and since when (pure). An order whose record stays malformed
// is never observed, so its transitions stay hidden: remembering since when lets `status` and the logs say
// so once it lasts. An order leaves the list when its record reads well again, or when it has not been
// seen for a while (it left the window, or was deleted); the list is bounded, keeping the oldest.
import * as z from 'zod';
import type { ListingProblem } from '../api/listingProblem.js';

export const UnreadableOrderSchema = z.object({
  /** When the record was first found unreadable (epoch ms), kept while it stays so. */
  since: z.number(),
  /** When it was last found unreadable (epoch ms). */
  lastSeenAt: z.number(),
  /** Where it was last found: the listing, its page, and what was wrong with the record. */
  listing: z.string(),
  page: z.number().int().positive(),
  detail: z.string(),
});
export type UnreadableOrder = z.infer<typeof UnreadableOrderSchema>;

/** By order uuid. */
export type UnreadableOrders = Record<string, UnreadableOrder>;

/** Enough to name a run of bad records; small enough for the poll state's one item (400 KB on DynamoDB). */
export const MAX_UNREADABLE_ORDERS = 100;

/** Longer than two passes of the slowest sweep (a day each): an order still there is seen again by then. */
export const FORGET_UNREADABLE_AFTER_MS = 2 * 24 * 3_600_000;

export interface UnreadableCycle {
  /** Every listing problem of the cycle; the skipped records with a readable uuid count. */
  problems: readonly ListingProblem[];
  /** Orders whose record the cycle read well, wherever. */
  readWell: ReadonlySet<string>;
  now: number;
}

/** The unreadable orders after a cycle, from those before it. */
export function trackUnreadable(previous: UnreadableOrders, cycle: UnreadableCycle): UnreadableOrders {
  const { now } = cycle;
  const next: UnreadableOrders = { ...previous };
  for (const problem of cycle.problems) {
    if (problem.kind !== 'skipped_record' || problem.uuid === undefined) continue;
    next[problem.uuid] = {
      since: next[problem.uuid]?.since ?? now,
      lastSeenAt: now,
      listing: problem.listing,
      page: problem.page,
      detail: problem.detail,
    };
  }
  // Read well anywhere this cycle, even if malformed in another listing: its transitions are seen.
  for (const uuid of cycle.readWell) delete next[uuid];
  const kept = Object.entries(next)
    .filter(([, order]) => now - order.lastSeenAt <= FORGET_UNREADABLE_AFTER_MS)
    .sort(([a, left], [b, right]) => left.since - right.since || a.localeCompare(b))
    .slice(0, MAX_UNREADABLE_ORDERS);
  return Object.fromEntries(kept);
}

/** The orders unreadable for longer than `forMs`, the longest first. */
export function unreadableFor(
  orders: UnreadableOrders,
  forMs: number,
  now: number,
): Array<UnreadableOrder & { uuid: string }> {
  return Object.entries(orders)
    .filter(([, order]) => now - order.since > forMs)
    .sort(([a, left], [b, right]) => left.since - right.since || a.localeCompare(b))
    .map(([uuid, order]) => ({ uuid, ...order }));
}
