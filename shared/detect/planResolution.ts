// Where to look for orders that left a completely walked pending listing (pure): one narrow listing per
// status, pickup date and establishment, the likeliest status first, so that most look-ups are one page
// and one round. `statuses` in the config decides what is announced, never where we look.
// An order whose payment method we know is looked for first among the orders paid the same way (a third to
// a half of the listing's pages); only where that finds nothing is it looked for among all, since only a
// listing of every payment method can tell it is not there. Within such a listing, the page it should be on
// (its creation time among the orders we know there) is read first, while the API lists as we predict.
import { PAGE_SIZE } from '../api/pagination.js';
import { type OrderStatus, type PaymentMethod, PaymentMethodSchema } from '../api/schemas.js';
import { compareListed } from './listedOrder.js';
import { covers, type ListingSpec, listingKey, type PlannedWalk, pagesFor } from './listingSpec.js';
import type { Snapshot } from './snapshot.js';

/** An order missing from a listing that was walked completely, as its snapshot remembers it. */
export interface VanishedOrder {
  uuid: string;
  pickupDate: string;
  /** The status it had when last seen. */
  status: string;
  establishment: string;
  /** `payment_method_type.value` when last seen, if known. */
  paymentMethod?: string | undefined;
}

/**
 * Where an order was looked for: a status (every payment method) or `<status>/<payment method>`. The
 * lookups record keeps these across cycles; a bare status is the only kind that counts towards missing.
 */
export function lookupPlace(status: string, paymentMethod?: PaymentMethod): string {
  return paymentMethod === undefined ? status : `${status}/${paymentMethod}`;
}

/** The place a look-up listing searches: see `lookupPlace`. */
export function placeOf(listing: ListingSpec): string {
  return lookupPlace(listing.status, listing.kind === 'narrow' ? listing.paymentMethod : undefined);
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
  /** Places (`lookupPlace`) each order was already looked for in this cycle (its own status included). */
  searched: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Places an order still unresolved was looked for in by earlier cycles: tried last this time, so that
   * a look-up that keeps missing does not take every cycle's budget before the others get any.
   */
  searchedBefore?: ReadonlyMap<string, readonly string[]>;
  /** Orders we know of by (status, pickup date, establishment) key: the narrow listing's likely size. */
  sizeOf: (listing: ListingSpec) => number;
  /**
   * The page `listing` would show `order` on, if it is there and the listing is sorted as we think; a look-up
   * reads that page first. Undefined when we cannot tell.
   */
  pageOf?: (order: VanishedOrder, listing: ListingSpec) => number | undefined;
}

/**
 * The places to look for `order` in, in turn: each likely status among the orders paid as it was, then
 * each among all (only those can prove it absent). Without a known payment method, the statuses alone.
 */
export function lookupPlaces(order: VanishedOrder): { status: OrderStatus; paymentMethod?: PaymentMethod }[] {
  const statuses = resolutionOrder(order.status).filter((status) => status !== order.status);
  const paymentMethod = PaymentMethodSchema.safeParse(order.paymentMethod).data;
  const narrowed = paymentMethod === undefined ? [] : statuses.map((status) => ({ status, paymentMethod }));
  return [...narrowed, ...statuses.map((status) => ({ status }))];
}

/** One look-up to make: a listing, and for a probe the one page the order is expected on. */
interface LookupTry {
  listing: ListingSpec & { kind: 'narrow' };
  /** A probe: only this page, read first, where the order would be if the listing is sorted as we think. */
  page?: number;
  place: string;
}

function narrowListing(order: VanishedOrder, status: OrderStatus, paymentMethod?: PaymentMethod) {
  return {
    kind: 'narrow' as const,
    status,
    startDate: order.pickupDate,
    endDate: order.pickupDate,
    establishment: order.establishment,
    ...(paymentMethod === undefined ? {} : { paymentMethod }),
  };
}

/**
 * Where to look for `order`, in turn: `lookupPlaces`, a narrowed one first by a probe of its likeliest page.
 * A probe that misses mostly means the order is not in that status at all (a canceled order is not among
 * the completed), so the rest of that listing comes after the next status's look-up.
 */
function lookupTries(order: VanishedOrder, pageOf: ResolutionRoundInput['pageOf']): LookupTry[] {
  const tries: LookupTry[] = [];
  let afterNext: LookupTry | undefined;
  for (const place of lookupPlaces(order)) {
    const listing = narrowListing(order, place.status, place.paymentMethod);
    const whole = { listing, place: lookupPlace(place.status, place.paymentMethod) };
    const page = place.paymentMethod === undefined ? undefined : pageOf?.(order, listing);
    tries.push(
      page === undefined || page <= 1 ? whole : { listing, page, place: probePlace(whole.place, page) },
    );
    if (afterNext) tries.push(afterNext);
    afterNext = page === undefined || page <= 1 ? undefined : whole;
  }
  if (afterNext) tries.push(afterNext);
  return tries;
}

/** The place a probe of one page searches: `completed/card#3`. */
function probePlace(place: string, page: number): string {
  return `${place}#${page}`;
}

/** The place a look-up walk searches: see `lookupPlace`; a walk from a later page is a probe of that page. */
export function placeOfWalk(walk: PlannedWalk): string {
  const place = placeOf(walk.listing);
  return walk.fromPage > 1 ? probePlace(place, walk.fromPage) : place;
}

/**
 * The next round of look-ups: for each unresolved order, the likeliest place it was not yet looked for
 * in, grouped so that orders sharing a date and establishment (and payment method, when narrowed) share one
 * listing. Empty when every order was looked for everywhere.
 */
export function planResolutionRound(input: ResolutionRoundInput): PlannedWalk[] {
  const walks = new Map<string, PlannedWalk>();
  for (const order of input.unresolved) {
    const searched = input.searched.get(order.uuid);
    const before = input.searchedBefore?.get(order.uuid) ?? [];
    const tries = lookupTries(order, input.pageOf);
    const ordered = [
      ...tries.filter((candidate) => !before.includes(candidate.place)),
      ...tries.filter((candidate) => before.includes(candidate.place)),
    ];
    // A status searched among all payment methods holds no news for a narrower look-up, nor a whole
    // narrowed listing for a probe of one of its pages.
    const next = ordered.find(
      (candidate) =>
        !searched?.has(candidate.place) &&
        !searched?.has(placeOf(candidate.listing)) &&
        !searched?.has(candidate.listing.status),
    );
    if (next === undefined) continue;
    const key = listingKey(next.listing);
    const fromPage = next.page ?? 1;
    const id = `${key}#${fromPage}`;
    if (walks.has(id)) continue;
    walks.set(id, {
      listing: next.listing,
      key,
      purpose: 'resolve',
      fromPage,
      maxPages: next.page === undefined ? undefined : 1,
      estimatedRequests: next.page === undefined ? pagesFor(input.sizeOf(next.listing)) : 1,
    });
  }
  return [...walks.values()].sort((a, b) => a.key.localeCompare(b.key) || a.fromPage - b.fromPage);
}

/**
 * The page `listing` would show `order` on, were it sorted as the API sorts what we have seen (pickup date,
 * creation time, uuid): its rank among the orders we believe it holds and those we look for in it.
 */
export function likelyPage(
  snapshots: ReadonlyMap<string, Snapshot>,
  sought: ReadonlySet<string>,
  order: VanishedOrder,
  listing: ListingSpec,
): number | undefined {
  const createdAt = snapshots.get(order.uuid)?.createdAt;
  if (createdAt === undefined) return undefined;
  let rank = 0;
  const counted = new Set<string>([order.uuid]);
  const itself = { pickupDate: order.pickupDate, createdAt, uuid: order.uuid };
  const before = (other: Snapshot) =>
    other.createdAt !== undefined &&
    compareListed(
      { pickupDate: other.pickupDate, createdAt: other.createdAt, uuid: other.orderUuid },
      itself,
    ) < 0;
  for (const snapshot of snapshots.values()) {
    if (snapshot.missingSince !== null || counted.has(snapshot.orderUuid)) continue;
    const place = {
      pickupDate: snapshot.pickupDate,
      establishment: snapshot.establishmentUuid,
      paymentMethod: snapshot.paymentMethod,
    };
    const inListing =
      covers(listing, snapshot.status, place) ||
      (sought.has(snapshot.orderUuid) && covers(listing, listing.status, place));
    if (!inListing) continue;
    if (snapshot.createdAt === undefined) return undefined;
    counted.add(snapshot.orderUuid);
    if (before(snapshot)) rank += 1;
  }
  return Math.floor(rank / PAGE_SIZE) + 1;
}
