// The listings a poll cycle asks the API for, typed by why it asks: the watched window of a status, a date
// part of it (when the whole is more than the budget can walk at once), or a narrow look-up of one status
// on one pickup date at one establishment (and, when we know how the order was paid, that payment method),
// where an order that left pending may now be.
import { PAGE_SIZE } from '../api/pagination.js';
import type { OrderStatus, PaymentMethod } from '../api/schemas.js';

interface ListingBounds {
  status: OrderStatus;
  startDate: string;
  endDate: string;
}

export type ListingSpec =
  | (ListingBounds & { kind: 'window'; establishment: string | undefined })
  | (ListingBounds & { kind: 'part'; establishment: string | undefined })
  | (ListingBounds & {
      kind: 'narrow';
      establishment: string;
      /**
       * Only orders paid this way, as the order was last seen paid. An order's payment method may change,
       * so such a listing finds orders but never proves one absent (see `provesAbsence`).
       */
      paymentMethod?: PaymentMethod;
    });

/** Why a walk is in the plan; the report and the bench count requests by it. */
export type WalkPurpose = 'detect' | 'resolve' | 'sweep';

export interface PlannedWalk {
  listing: ListingSpec;
  /** Names the listing across cycles (state keys, reports). */
  key: string;
  purpose: WalkPurpose;
  /** First page to fetch: a sweep resumes where the last cycle stopped. */
  fromPage: number;
  /** Most pages this walk may take; undefined walks to the end. */
  maxPages: number | undefined;
  /** Requests the walk should take, from what is known of the listing's size. */
  estimatedRequests: number;
  /**
   * Today's listing, checked rather than walked whole (listingCheck.ts): the orders we know it holds, in the
   * order the API lists them. A check that cannot settle walks it whole.
   */
  check?: readonly string[];
}

/** The requests a set of walks should take. */
export function pagesOf(walks: readonly PlannedWalk[]): number {
  return walks.reduce((sum, walk) => sum + walk.estimatedRequests, 0);
}

/** Dates `startDate` to `endDate` of a status's listing (its window, or a part of it), as a listing of their own. */
export function partOf(whole: ListingSpec, startDate: string, endDate: string): ListingSpec {
  return { kind: 'part', status: whole.status, establishment: whole.establishment, startDate, endDate };
}

/** A walk of pending over `listing`, whole, from page 1: the walks detection plans. */
export function detectWalk(listing: ListingSpec, pages: number): PlannedWalk {
  return {
    listing,
    key: listingKey(listing),
    purpose: 'detect',
    fromPage: 1,
    maxPages: undefined,
    estimatedRequests: pages,
  };
}

/**
 * `pending`, `pending@<est>`, `pending[2026-11-20..2026-11-21]`, `completed:2026-11-20@<est>`,
 * `completed:2026-11-20@<est>/card`.
 */
export function listingKey(listing: ListingSpec): string {
  const at = listing.establishment === undefined ? '' : `@${listing.establishment}`;
  switch (listing.kind) {
    case 'window':
      return `${listing.status}${at}`;
    case 'part':
      return `${listing.status}[${listing.startDate}..${listing.endDate}]${at}`;
    case 'narrow':
      return `${listing.status}:${listing.startDate}${at}${listing.paymentMethod ? `/${listing.paymentMethod}` : ''}`;
  }
}

/** The last pickup date a part's key names (`pending[2026-11-20..2026-11-21]` → 2026-11-21); undefined for other keys. */
export function listingKeyEndDate(key: string): string | undefined {
  return /\.\.(\d{4}-\d{2}-\d{2})\]/.exec(key)?.[1];
}

/** The establishment a key names after its `@` (`pending[…]@<est>` → <est>); undefined for a key of every establishment. */
export function listingKeyEstablishment(key: string): string | undefined {
  const at = key.indexOf('@');
  if (at < 0) return undefined;
  const slash = key.indexOf('/', at);
  return key.slice(at + 1, slash < 0 ? undefined : slash);
}

/**
 * Whether a listing of `pages` can never be walked whole: its pages are reserved before the second goes out,
 * and the token never has more than `usablePerMinute` to give.
 */
export function tooLargeToWalk(pages: number, usablePerMinute: number): boolean {
  return pages > usablePerMinute;
}

/** Pages a listing of `size` orders takes; an empty listing still costs the one request that shows it. */
export function pagesFor(size: number | undefined): number {
  return Math.max(1, Math.ceil((size ?? 0) / PAGE_SIZE));
}

/**
 * Whether `listing` would list an order of `status` picked up on `date` at `establishment`, paid as
 * `paymentMethod` says when the listing is narrowed to one payment method (an order whose payment method
 * we do not know is not covered by such a listing).
 */
export function covers(
  listing: ListingSpec,
  status: string,
  order: { pickupDate: string; establishment: string; paymentMethod?: string | undefined },
): boolean {
  return (
    listing.status === status &&
    (listing.kind !== 'narrow' ||
      listing.paymentMethod === undefined ||
      listing.paymentMethod === order.paymentMethod) &&
    listing.startDate <= order.pickupDate &&
    order.pickupDate <= listing.endDate &&
    (listing.establishment === undefined || sameEstablishment(listing.establishment, order.establishment))
  );
}

/** Whether `listing` holds only the orders of one payment method. */
export function isPaymentNarrowed(listing: ListingSpec): boolean {
  return listing.kind === 'narrow' && listing.paymentMethod !== undefined;
}

/**
 * Whether a complete walk of `listing` that did not show an order proves the order is not in its status
 * there: not when it was narrowed to the payment method the order was last seen with, which may have changed.
 */
export function provesAbsence(listing: ListingSpec): boolean {
  return !isPaymentNarrowed(listing);
}

/**
 * Whether two establishment uuids name the same establishment: the config's are lower case, and the API may
 * write them in capitals.
 */
export function sameEstablishment(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
