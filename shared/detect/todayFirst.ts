// Today first (pure): while the kitchen can still act on today's orders, today's pending listing is read
// every cycle, checked where it changed (listingCheck.ts) and walked whole now and then, and the rest of the
// window a date or so at a time beside it, each date as often as pacePoll.ts's slow period says, checked
// too between its own whole walks.
// Today's priority lasts until the last of today's establishments has closed and its late
// changes are over (HOT_MARGIN_MS after it). Tomorrow's listing does not take it over then: tomorrow's orders
// are acted on at tomorrow's closing, when they are today's and first again; until then nobody prepares
// them, so the evening's requests buy more as the window's pace (and a cheaper, quieter cadence).

import { addDays } from '../time/calendarDate.js';
import { type Closing, closingsOn, type EstablishmentSchedule } from './closingTimes.js';
import {
  detectWalk,
  type ListingSpec,
  listingKey,
  type PlannedWalk,
  pagesFor,
  pagesOf,
  partOf,
  sameEstablishment,
} from './listingSpec.js';
import { HOT_MARGIN_MS } from './planCadence.js';

export interface TodayFirstInput {
  today: string;
  now: number;
  timeZone: string;
  /** The establishments cache's records; null until it is first filled: today is first all day then. */
  establishments: readonly EstablishmentSchedule[] | null;
  /** Only these establishment uuids count, when the organization polls only them. */
  polled: readonly string[] | undefined;
}

/** Whether today's orders are still ones a kitchen acts on: some polled establishment has not closed today. */
export function todayIsFirst(input: TodayFirstInput): boolean {
  if (input.establishments === null) return true;
  const polled = input.establishments.filter(
    (establishment) =>
      input.polled === undefined || input.polled.some((uuid) => sameEstablishment(uuid, establishment.uuid)),
  );
  const closings = closingsOn(polled, input.today, input.timeZone);
  const last = closings.at(-1);
  return last !== undefined && input.now < last.closesAt + HOT_MARGIN_MS;
}

/** The window cut in two: today's listings, read every cycle, and the rest, walked a part at a time. */
export interface TodayFirstWalks {
  today: PlannedWalk[];
  /**
   * The rest of the window, without today (the days before it, the days after it): what each cycle walks a
   * part of beside today's, so that no order is read twice in one cycle. Most changes are today's, so its
   * walk is seldom one the world moved under.
   */
  rest: PlannedWalk[];
}

/**
 * The window's walks cut into today's and the rest, each part sized by `pendingIn` (the pending orders we
 * know of there, or the size its last walk announced); undefined when the cut would buy little: when a
 * cycle of today's alone would save less than two pages (a window of a page or two, such as each of 20
 * schools on one token's), or the parts would cost more than the whole and a page for each cut.
 */
export function todayFirstWalks(
  window: readonly PlannedWalk[],
  today: string,
  pendingIn: (listing: ListingSpec, key: string) => number | undefined,
): TodayFirstWalks | undefined {
  if (window.length === 0 || window.some((walk) => walk.listing.kind !== 'window')) return undefined;
  const part = (whole: ListingSpec, startDate: string, endDate: string): PlannedWalk => {
    const listing = partOf(whole, startDate, endDate);
    return detectWalk(listing, pagesFor(pendingIn(listing, listingKey(listing))));
  };
  const todays = window.map(({ listing }) => part(listing, today, today));
  const rest = window.flatMap(({ listing }) =>
    [
      { startDate: listing.startDate, endDate: addDays(today, -1) },
      { startDate: addDays(today, 1), endDate: listing.endDate },
    ]
      .filter((range) => range.startDate <= range.endDate)
      .map((range) => part(listing, range.startDate, range.endDate)),
  );
  const todayPages = pagesOf(todays);
  const windowPages = pagesOf(window);
  const worthIt =
    rest.length > 0 &&
    todayPages <= windowPages - 2 &&
    todayPages + pagesOf(rest) <= windowPages + rest.length;
  return worthIt ? { today: todays, rest } : undefined;
}

/** One pickup date of the rest of the window, as a part of it is cut. */
interface RestDate {
  whole: ListingSpec;
  date: string;
  orders: number;
  readAt: number | undefined;
}

/**
 * The rest of the window cut into parts, the longest unread first: its dates cut into `parts` runs of about
 * as many pending orders each, ranked by `readAt`, when each date was last walked or checked
 * (coverage.ts pendingReadAt), so that a cut that moves as orders come and go starves no date. With `parts`
 * 1, the whole rest.
 */
export function restParts(
  rest: readonly PlannedWalk[],
  parts: number,
  pendingOn: (listing: ListingSpec, date: string) => number,
  readAt: (listing: ListingSpec, date: string) => number | undefined,
): PlannedWalk[][] {
  const dates: RestDate[] = rest.flatMap(({ listing }) => {
    const each: RestDate[] = [];
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
      each.push({
        whole: listing,
        date,
        orders: pendingOn(listing, date),
        readAt: readAt(listing, date),
      });
    }
    return each;
  });
  const total = dates.reduce((sum, { orders }) => sum + orders, 0);
  const runs: RestDate[][] = [];
  let before = 0;
  for (const date of dates) {
    const cut = runs.length < parts && before >= (total * runs.length) / parts;
    if (cut || runs.length === 0) runs.push([]);
    runs.at(-1)?.push(date);
    before += date.orders;
  }
  const oldest = (run: readonly RestDate[]) =>
    Math.min(...run.map(({ readAt: at }) => at ?? Number.NEGATIVE_INFINITY));
  // Stable: of runs as old, the earlier dates first.
  return [...runs].sort((a, b) => oldest(a) - oldest(b)).map(walksOf);
}

/** A run of dates as listings: one per stretch of consecutive dates of one listing of the rest. */
function walksOf(run: readonly RestDate[]): PlannedWalk[] {
  const walks: PlannedWalk[] = [];
  let current: { whole: ListingSpec; startDate: string; endDate: string; orders: number } | undefined;
  const flush = () => {
    if (current === undefined) return;
    const { whole, startDate, endDate, orders } = current;
    walks.push(detectWalk(partOf(whole, startDate, endDate), pagesFor(orders)));
  };
  for (const { whole, date, orders } of run) {
    if (current?.whole === whole && addDays(current.endDate, 1) === date) {
      current.endDate = date;
      current.orders += orders;
    } else {
      flush();
      current = { whole, startDate: date, endDate: date, orders };
    }
  }
  flush();
  return walks;
}

export interface CheckedWalksInput {
  now: number;
  /** How long the listings may go unwalked whole (pacePoll.ts: today's, or the rest's). */
  wholeEveryMs: number;
  /** The expected gap to the next cycle: a walk whole due before it is due now. */
  gapMs: number;
  /** When each listing was last walked whole, by key. */
  walkedAt: Readonly<Record<string, number>>;
  /** Listings whose last whole walk did not come in the order we predict: never checked. */
  unpredicted: readonly string[];
  /**
   * Today's closings so far, for today's listings (none for the rest's): the first cycle after one walks
   * whole, so that its prep summary counts all.
   */
  closings: readonly Closing[];
  /** The orders we know each listing holds, in its order; undefined where that cannot be told. */
  knownListed(listing: ListingSpec): string[] | undefined;
}

/**
 * Pending's walks as this cycle reads them, today's or the rest's part: each checked (listingCheck.ts), unless
 * a walk whole is due: never walked whole, or not for `wholeEveryMs` (an edit is seen only by one), an
 * establishment of it closed since (the prep summary counts the orders a walk whole read), or its orders
 * not listed as we predict. A check of the rest's date reads a page or two where a walk reads them all,
 * and the budget it leaves goes to today's.
 */
export function checkedWalks(walks: readonly PlannedWalk[], input: CheckedWalksInput): PlannedWalk[] {
  return walks.map((walk) => {
    const walkedAt = input.walkedAt[walk.key];
    if (walkedAt === undefined || input.unpredicted.includes(walk.key)) return walk;
    if (input.now + input.gapMs >= walkedAt + input.wholeEveryMs) return walk;
    const closedSince = input.closings.some(
      (closing) =>
        closing.closesAt > walkedAt &&
        closing.closesAt <= input.now &&
        (walk.listing.establishment === undefined ||
          sameEstablishment(walk.listing.establishment, closing.establishment.uuid)),
    );
    if (closedSince) return walk;
    const known = input.knownListed(walk.listing);
    return known === undefined ? walk : { ...walk, check: known };
  });
}

/**
 * Whether a part of the rest (restParts) is due in this cycle: once its longest-unread date has waited
 * the rest's period, less the gap to the next cycle. Until then the cycle reads today's alone.
 */
export function restPartIsDue(
  part: readonly PlannedWalk[],
  input: { now: number; periodMs: number; gapMs: number },
  readAt: (listing: ListingSpec, date: string) => number | undefined,
): boolean {
  let oldest = Number.POSITIVE_INFINITY;
  for (const { listing } of part) {
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
      oldest = Math.min(oldest, readAt(listing, date) ?? Number.NEGATIVE_INFINITY);
    }
  }
  return part.length > 0 && input.now + input.gapMs >= oldest + input.periodMs;
}

/**
 * How long a part of the rest that is due may wait for its turn behind another due one, a cycle later. Past
 * that it goes in the same cycle: where cycles come every 5 s the parts due take turns, and no cycle is
 * dear enough to wait for the rolling minute; where they come every 30 s (on AWS at its default interval),
 * a turn would leave a part a whole cycle past its period.
 */
const TURN_ALLOWANCE_MS = 15_000;

/**
 * The parts of the rest this cycle reads (`parts` as restParts gives them, the longest unread first):
 * the first part due, and each further part due that would wait more than TURN_ALLOWANCE_MS for its turn,
 * as long as `fits` says it fits beside those taken.
 */
export function restPartsNow(
  parts: readonly (readonly PlannedWalk[])[],
  timing: { now: number; periodMs: number; gapMs: number },
  readAt: (listing: ListingSpec, date: string) => number | undefined,
  fits: (taken: readonly PlannedWalk[], part: readonly PlannedWalk[]) => boolean,
): PlannedWalk[] {
  const taken: PlannedWalk[] = [];
  for (const [turn, part] of parts.entries()) {
    if (!restPartIsDue(part, timing, readAt)) break;
    if (turn > 0 && (turn * timing.gapMs <= TURN_ALLOWANCE_MS || !fits(taken, part))) break;
    taken.push(...part);
  }
  return taken;
}
