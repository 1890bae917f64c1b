// What may be concluded from what a cycle did and did not see (pure). Absence only means something where
// a listing that would hold the order was walked completely and consistently; an order we never knew is
// news only if it could not have existed, unseen, when we last looked.
import type { Order } from '../api/schemas.js';
import { type Coverage, coverageKey } from './coverage.js';
import { covers, provesAbsence } from './listingSpec.js';
import type { VanishedOrder } from './planResolution.js';
import type { Snapshot } from './snapshot.js';
import { isTrustworthy, type WalkResult } from './walkResult.js';

/** How far the API's clock may run behind ours before a new order could pass for an old one. */
export const CLOCK_SKEW_MS = 15 * 60_000;

/**
 * Whether `result` was walked completely and would list an order of `status` like `order`, whatever it is
 * paid with: a listing narrowed to one payment method proves nothing about an order not in it.
 */
export function holds(
  result: WalkResult,
  status: string,
  order: Omit<VanishedOrder, 'uuid' | 'status'>,
): boolean {
  return (
    isTrustworthy(result) && provesAbsence(result.walk.listing) && covers(result.walk.listing, status, order)
  );
}

function vanishedOf(snapshot: Snapshot): VanishedOrder {
  return {
    uuid: snapshot.orderUuid,
    pickupDate: snapshot.pickupDate,
    status: snapshot.status,
    establishment: snapshot.establishmentUuid,
    ...(snapshot.paymentMethod === undefined ? {} : { paymentMethod: snapshot.paymentMethod }),
  };
}

/**
 * Orders we last saw in a status whose listing this cycle walked completely, and that were not in it, nor
 * seen anywhere else: they went somewhere, and that is worth a look-up. Orders already marked missing are
 * left to their TTL.
 */
export function findVanished(
  snapshots: ReadonlyMap<string, Snapshot>,
  seen: ReadonlySet<string>,
  walked: readonly WalkResult[],
): VanishedOrder[] {
  const vanished: VanishedOrder[] = [];
  for (const snapshot of snapshots.values()) {
    if (snapshot.missingSince !== null || seen.has(snapshot.orderUuid)) continue;
    const order = vanishedOf(snapshot);
    if (walked.some((result) => holds(result, order.status, order))) vanished.push(order);
  }
  return vanished;
}

/** The statuses each vanished order has been looked for in completely this cycle, its own included. */
export function searchedStatuses(
  vanished: readonly VanishedOrder[],
  walked: readonly WalkResult[],
  statuses: readonly string[],
): Map<string, Set<string>> {
  return new Map(
    vanished.map((order) => [
      order.uuid,
      new Set(statuses.filter((status) => walked.some((result) => holds(result, status, order)))),
    ]),
  );
}

/** Absent from a complete listing of every status it could have: it left the window or was deleted. */
export function isMissingEverywhere(
  searched: ReadonlySet<string> | undefined,
  statuses: readonly string[],
): boolean {
  return statuses.every((status) => searched?.has(status) ?? false);
}

/**
 * Whether an order we have no snapshot of is news. Seen in pending: when its pickup date was walked
 * completely before (it was not there then), or, for a date that only now entered the window, when it
 * was created since our last walk. Seen in another status: when it was created after we began watching
 * (it never showed in pending while we looked). Anything else existed before we could see it, and
 * announcing it would be false.
 */
export function isNews(order: Order, listedApart: boolean, history: Coverage): boolean {
  const createdAt = Date.parse(order.created_at);
  if (order.status.value !== 'pending') {
    return history.watchingSince !== null && !Number.isNaN(createdAt) && createdAt >= history.watchingSince;
  }
  const key = coverageKey(order.pickup_at, listedApart ? order.establishment.uuid : undefined);
  if (history.pendingCoveredAt[key] !== undefined) return true;
  const walks = Object.values(history.pendingCoveredAt);
  if (walks.length === 0) return false;
  const lastWalk = Math.max(...walks);
  return Number.isNaN(createdAt) || createdAt >= lastWalk - CLOCK_SKEW_MS;
}
