// Where to look for orders that left a completely walked pending listing (pure): one narrow listing per
// status, pickup date and establishment, the likeliest status first, so that most look-ups are one page
// and one round. `statuses` in the config decides what is announced, never where we look.
// An order whose payment method we know is looked for first among the orders paid the same way (a third to
// a half of the listing's pages); only where that finds nothing is it looked for among all, since only a
// listing of every payment method can tell it is not there.
import { type OrderStatus, type PaymentMethod, PaymentMethodSchema } from '../api/schemas.js';
import { type ListingSpec, listingKey, type PlannedWalk, pagesFor } from './listingSpec.js';

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
    const places = lookupPlaces(order);
    const named = (place: (typeof places)[number]) => lookupPlace(place.status, place.paymentMethod);
    const ordered = [
      ...places.filter((place) => !before.includes(named(place))),
      ...places.filter((place) => before.includes(named(place))),
    ];
    // A status searched among all payment methods holds no news for a narrower look-up.
    const place = ordered.find(
      (candidate) => !searched?.has(named(candidate)) && !searched?.has(candidate.status),
    );
    if (place === undefined) continue;
    const listing: ListingSpec = {
      kind: 'narrow',
      status: place.status,
      startDate: order.pickupDate,
      endDate: order.pickupDate,
      establishment: order.establishment,
      ...(place.paymentMethod === undefined ? {} : { paymentMethod: place.paymentMethod }),
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
