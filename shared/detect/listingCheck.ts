// The check of a pending listing (pure): between two whole walks, today's pending listing, and each date of
// the rest of the window, is read only where it changed. The API lists orders by pickup date, then creation,
// so a day's new orders come at the end of its orders, and an order that left opens a gap between two
// neighbours we know. A check reads the last page, then, wherever a stretch of the listing it has not read
// holds a different number of places than the orders we know there, a page in that stretch, until every
// unread stretch balances. What it read is seen; an order missing between two known neighbours on a page
// read has left; the unread orders of a balanced stretch are still there, unread (`carried`).
//
// A stretch where one order left and another came in the middle (moved to the date from another day)
// balances too: the check misses both, and the next whole walk sees them, late but once. An edit (a note, a
// line) is seen where a check reads its page, and always by the whole walk: todayFirst.ts says how often
// that is.
import { PAGE_SIZE } from '../api/pagination.js';
import { compareListed, type ListedPlace } from './listedOrder.js';
import { type ListingSpec, pagesFor, sameEstablishment } from './listingSpec.js';
import type { Snapshot } from './snapshot.js';

/** One page a check read: its number and its orders' uuids, in the API's order. */
export interface PageRead {
  page: number;
  uuids: readonly string[];
}

export type CheckDecision =
  | { kind: 'read'; page: number }
  /** Every place accounted for: the listing's uuids in order, and the known orders it no longer holds. */
  | { kind: 'settled'; listed: string[]; carried: string[]; departed: string[] }
  /** The pages contradict what we know (not in our order, or a place past the total): walk it whole. */
  | { kind: 'unsettled'; reason: 'not in the predicted order' | 'a page past the total' };

/**
 * The orders we believe pending `listing` holds, in the order the API lists them (pickup date, creation
 * time, uuid), leaving out those being looked for (`looking`); undefined when one lacks its creation time
 * (snapshots written before it was kept), since then no place can be predicted.
 */
export function knownListed(
  snapshots: ReadonlyMap<string, Snapshot>,
  listing: ListingSpec,
  looking: ReadonlySet<string>,
): string[] | undefined {
  const known: ListedPlace[] = [];
  for (const snapshot of snapshots.values()) {
    if (snapshot.status !== 'pending' || snapshot.missingSince !== null) continue;
    if (snapshot.pickupDate < listing.startDate || snapshot.pickupDate > listing.endDate) continue;
    if (
      listing.establishment !== undefined &&
      !sameEstablishment(listing.establishment, snapshot.establishmentUuid)
    )
      continue;
    if (looking.has(snapshot.orderUuid)) continue;
    if (snapshot.createdAt === undefined) return undefined;
    known.push({ uuid: snapshot.orderUuid, pickupDate: snapshot.pickupDate, createdAt: snapshot.createdAt });
  }
  known.sort(compareListed);
  return known.map(({ uuid }) => uuid);
}

/** The page a check reads first: the last page of the listing as we know it, where new orders come. */
export function firstCheckPage(known: readonly string[]): number {
  return pagesFor(known.length);
}

/**
 * What the pages read so far (all with the same `meta.total`, `total`) say of the listing, against the
 * orders we know in their order: the next page to read, or the listing as it is now.
 */
export function decideCheck(
  known: readonly string[],
  total: number,
  reads: readonly PageRead[],
): CheckDecision {
  const rank = new Map(known.map((uuid, index) => [uuid, index]));
  const readAt = new Map<number, string>();
  for (const { page, uuids } of reads) {
    uuids.forEach((uuid, index) => {
      readAt.set((page - 1) * PAGE_SIZE + index, uuid);
    });
  }
  const places = [...readAt.keys()].sort((a, b) => a - b);
  if (places.some((place) => place >= total)) return { kind: 'unsettled', reason: 'a page past the total' };
  // Known orders seen, by place: each pair of neighbours bounds a stretch. The ends are virtual anchors.
  const anchors: Array<{ place: number; rank: number }> = [{ place: -1, rank: -1 }];
  for (const place of places) {
    const known = rank.get(readAt.get(place) as string);
    if (known !== undefined) anchors.push({ place, rank: known });
  }
  anchors.push({ place: total, rank: known.length });
  const carriedAt = new Map<number, string>();
  const departed: string[] = [];
  let next: number | undefined;
  for (let index = 1; index < anchors.length; index += 1) {
    const from = anchors[index - 1] as { place: number; rank: number };
    const to = anchors[index] as { place: number; rank: number };
    if (to.rank <= from.rank) return { kind: 'unsettled', reason: 'not in the predicted order' };
    const unread: number[] = [];
    for (let place = from.place + 1; place < to.place; place += 1) if (!readAt.has(place)) unread.push(place);
    const between = to.rank - from.rank - 1;
    if (unread.length === between) {
      unread.forEach((place, offset) => {
        carriedAt.set(place, known[from.rank + 1 + offset] as string);
      });
    } else if (unread.length === 0) {
      // Both neighbours read and nothing unread between them: whatever we knew there is gone.
      for (let gone = from.rank + 1; gone < to.rank; gone += 1) departed.push(known[gone] as string);
    } else {
      // The stretch at the end holds the new orders: its last page first. Elsewhere the middle page
      // halves the stretch, so a lone departure is found in about log2(pages) reads.
      const atEnd = to.place === total;
      const place = atEnd ? (unread.at(-1) as number) : (unread[Math.floor(unread.length / 2)] as number);
      if (next === undefined || atEnd) next = Math.floor(place / PAGE_SIZE) + 1;
    }
  }
  if (next !== undefined) return { kind: 'read', page: next };
  const listed: string[] = [];
  for (let place = 0; place < total; place += 1)
    listed.push(readAt.get(place) ?? (carriedAt.get(place) as string));
  return { kind: 'settled', listed, carried: [...carriedAt.values()], departed };
}
