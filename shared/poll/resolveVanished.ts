// The poll cycle's resolution of the vanished: it looks for the orders that left a pending listing walked
// completely, round by round, the likeliest status first, one narrow listing per status, pickup date and
// establishment. What is still unresolved is remembered with where it was looked for; what is found nowhere
// is missing.
import { ORDER_STATUSES } from '../api/schemas.js';
import { findVanished, holds, isMissingEverywhere, searchedStatuses } from '../detect/absence.js';
import { type Coverage, coverageKey } from '../detect/coverage.js';
import { isListedAsWePredict } from '../detect/listedOrder.js';
import { covers, type ListingSpec } from '../detect/listingSpec.js';
import {
  likelyPage,
  placeOf,
  placeOfWalk,
  planResolutionRound,
  resolutionOrder,
  type VanishedOrder,
} from '../detect/planResolution.js';
import type { Snapshot } from '../detect/snapshot.js';
import { isTrustworthy } from '../detect/walkResult.js';
import type { Lookups } from '../store/pollState.js';
import { addDays } from '../time/calendarDate.js';
import type { CycleContext } from './cycleContext.js';
import { movingAverage } from './movingAverage.js';
import { stopsCycle, type WalkOutcome, walkListing } from './walkListing.js';

export interface Resolution {
  /** Orders that left a completely walked pending listing, as last seen. */
  vanished: VanishedOrder[];
  outcomes: WalkOutcome[];
  /** Vanished orders found in no status at all. */
  missing: VanishedOrder[];
  /** The record for the next cycle: the orders still unresolved, and what look-ups cost. */
  lookups: Lookups;
}

export async function resolveVanished(
  context: CycleContext,
  snapshots: ReadonlyMap<string, Snapshot>,
  pending: readonly WalkOutcome[],
  lookups: Lookups,
  coverage: Coverage,
): Promise<Resolution> {
  // A check's carried orders are still listed, though not read.
  const seen = new Set(
    pending.flatMap((outcome) => [
      ...(outcome.listing?.records.map(({ uuid }) => uuid) ?? []),
      ...(outcome.carried ?? []),
    ]),
  );
  const vanished = findVanished(snapshots, seen, pending);
  const waitingSince = lookups.waitingSince ?? {};
  const coversWindow = (order: VanishedOrder) =>
    walkedWholeSince(context, pending, coverage, order, waitingSince[order.uuid]);
  // A cycle that walked today's pending and a part of the rest cannot tell an order moved to another day
  // from one gone: one looked for in every other status already waits, unannounced, until pending has been
  // walked on every date of the window since, which sees it wherever it went.
  const waiting = vanished.filter(
    (order) => !coversWindow(order) && lookedForEverywhere(order, lookups.searched[order.uuid]),
  );
  const searched = searchedStatuses(vanished, pending, ORDER_STATUSES);
  // Where each order was looked for this cycle, walked completely or not: a look-up that failed is not
  // asked again in the next round (it would fail the same way), and the order's next place gets its turn.
  // Only `searched` counts towards concluding that the order is missing, and in it only the bare statuses
  // (listings of every payment method): `<status>/<payment method>` only orders the next cycle's tries.
  const tried = new Map([...searched].map(([uuid, statuses]) => [uuid, new Set(statuses)]));
  const outcomes: WalkOutcome[] = [];
  const stopped = () => stopsCycle(pending) || stopsCycle(outcomes);
  let unresolved = vanished.filter((order) => !waiting.includes(order));
  // Reading first the page an order should be on pays only if the API sorts as we think; pending's pages
  // just read tell, at no cost. Otherwise every look-up reads from page 1, as it always did.
  const sortedAsWeThink = pending.every((outcome) => isListedAsWePredict(outcome.listing?.records ?? []));
  const soughtUuids = new Set(unresolved.map((order) => order.uuid));
  // A round per place: each status among the orders paid the same way, then among all.
  for (let round = 0; round < 2 * ORDER_STATUSES.length && unresolved.length > 0 && !stopped(); round += 1) {
    const walks = planResolutionRound({
      unresolved,
      searched: tried,
      searchedBefore: new Map(Object.entries(lookups.searched)),
      sizeOf: (listing) => knownOrders(snapshots, listing),
      ...(sortedAsWeThink
        ? {
            pageOf: (order: VanishedOrder, listing: ListingSpec) =>
              likelyPage(snapshots, soughtUuids, order, listing),
          }
        : {}),
    });
    if (walks.length === 0) break;
    for (const walk of walks) {
      const place = placeOfWalk(walk);
      // Not those this place (or all of its status) was already tried for: the walk would go on for them.
      const sought = unresolved.filter(
        (order) =>
          covers(walk.listing, walk.listing.status, order) &&
          !tried.get(order.uuid)?.has(place) &&
          !tried.get(order.uuid)?.has(placeOf(walk.listing)) &&
          !tried.get(order.uuid)?.has(walk.listing.status),
      );
      for (const order of sought) tried.get(order.uuid)?.add(place);
      const outcome = await walkListing(context, walk, {
        stopped: stopped(),
        foundEnough: (records) =>
          sought.every((order) => records.some((record) => record.uuid === order.uuid)),
      });
      outcomes.push(outcome);
      for (const record of outcome.listing?.records ?? []) seen.add(record.uuid);
      // A narrowed look-up that failed: the same status among every payment method would fail alike, so
      // it is not asked this cycle either.
      if (outcome.error !== undefined) {
        for (const order of sought) tried.get(order.uuid)?.add(walk.listing.status);
      }
      if (!isTrustworthy(outcome)) continue;
      for (const order of sought) searched.get(order.uuid)?.add(place);
    }
    unresolved = unresolved.filter((order) => !seen.has(order.uuid));
  }
  unresolved = [...unresolved, ...waiting];
  const requests = outcomes.reduce((sum, outcome) => sum + outcome.requests, 0);
  // Absent wherever it could be: it left the window or was deleted. Remembered once, so it is not looked
  // for again every cycle, and the TTL forgets it. Not before pending was walked on every date since it
  // left: it may be pending on a date not walked yet.
  const missing = unresolved.filter(
    (order) => isMissingEverywhere(searched.get(order.uuid), ORDER_STATUSES) && coversWindow(order),
  );
  // Only orders still unresolved are remembered, so the record stays as small as the backlog.
  const remembered = new Map(
    unresolved.map((order) => [
      order.uuid,
      [...new Set([...(lookups.searched[order.uuid] ?? []), ...(searched.get(order.uuid) ?? [])])],
    ]),
  );
  const nowWaiting = unresolved.filter(
    (order) => !missing.includes(order) && lookedForEverywhere(order, remembered.get(order.uuid)),
  );
  return {
    vanished,
    outcomes,
    missing,
    lookups: {
      searched: Object.fromEntries(remembered),
      averageRequests: movingAverage(lookups.averageRequests, requests),
      ...(nowWaiting.length === 0
        ? {}
        : {
            waitingSince: Object.fromEntries(
              nowWaiting.map((order) => [order.uuid, waitingSince[order.uuid] ?? context.startedAt]),
            ),
          }),
    },
  };
}

/** Whether `order` was looked for, by this cycle or earlier ones, in every status it may have gone to. */
function lookedForEverywhere(order: VanishedOrder, searched: readonly string[] | undefined): boolean {
  return resolutionOrder(order.status).every(
    (status) => status === order.status || (searched ?? []).includes(status),
  );
}

/**
 * Whether pending was walked completely on every date of the window, where `order` would be listed: by this
 * cycle, or, for an order waiting since `since`, by the cycles since.
 */
function walkedWholeSince(
  context: CycleContext,
  pending: readonly WalkOutcome[],
  coverage: Coverage,
  order: VanishedOrder,
  since: number | undefined,
): boolean {
  const listedApart = context.organization.establishments !== undefined;
  for (let date = context.window.startDate; date <= context.window.endDate; date = addDays(date, 1)) {
    const there = { pickupDate: date, establishment: order.establishment };
    if (pending.some((result) => holds(result, 'pending', there))) continue;
    const coveredAt =
      coverage.pendingCoveredAt[coverageKey(date, listedApart ? order.establishment : undefined)];
    if (since === undefined || coveredAt === undefined || coveredAt < since) return false;
  }
  return true;
}

/** Orders we know of that `listing` would hold, as their snapshots say. */
function knownOrders(snapshots: ReadonlyMap<string, Snapshot>, listing: ListingSpec): number {
  let count = 0;
  for (const snapshot of snapshots.values()) {
    const order = {
      pickupDate: snapshot.pickupDate,
      establishment: snapshot.establishmentUuid,
      paymentMethod: snapshot.paymentMethod,
    };
    if (snapshot.missingSince === null && covers(listing, snapshot.status, order)) count += 1;
  }
  return count;
}
