// Today first (pure): while the kitchen can still act on today's orders, today's pending listing is walked
// every cycle, at its own faster pace, and the rest of the window only as often as what is left of the
// budget allows. Today's priority lasts until the last of today's establishments has closed and its late
// changes are over (HOT_MARGIN_MS after it). Tomorrow's listing does not take it over then: tomorrow's orders
// are acted on at tomorrow's closing, when they are today's and first again; until then nobody prepares
// them, so the evening's requests buy more as the window's pace (and a cheaper, quieter cadence).
import { closingsOn, type EstablishmentSchedule } from './closingTimes.js';
import { listingKey, type PlannedWalk, pagesFor, sameEstablishment } from './listingSpec.js';
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

/**
 * Today's pending walks, one per listing of the window's plan, sized from the pending orders we know of
 * today (or the size its last walk announced); undefined when they would cost half the window's or more (a
 * window of one day, a pending listing of a page or two): today first would buy little, and slow the rest.
 */
export function todayWalks(
  window: readonly PlannedWalk[],
  today: string,
  pendingToday: (establishment: string | undefined, key: string) => number | undefined,
): PlannedWalk[] | undefined {
  if (window.length === 0 || window.some((walk) => walk.listing.kind !== 'window')) return undefined;
  const walks = window.map((walk): PlannedWalk => {
    const listing = { ...walk.listing, kind: 'part' as const, startDate: today, endDate: today };
    const key = listingKey(listing);
    return {
      listing,
      key,
      purpose: 'detect',
      fromPage: 1,
      maxPages: undefined,
      estimatedRequests: pagesFor(pendingToday(walk.listing.establishment, key)),
    };
  });
  const todayPages = walks.reduce((sum, walk) => sum + walk.estimatedRequests, 0);
  const windowPages = window.reduce((sum, walk) => sum + walk.estimatedRequests, 0);
  return 2 * todayPages < windowPages ? walks : undefined;
}

/** Whether this cycle walks the whole window: it was never walked whole, or not for `restIntervalMs`. */
export function windowDue(
  window: readonly PlannedWalk[],
  lastWalkedAt: Readonly<Record<string, number>>,
  now: number,
  restIntervalMs: number,
  cycleIntervalMs: number,
): boolean {
  // Half a cycle early rather than half a cycle late: the rest's pace is kept on average.
  return window.some((walk) => {
    const last = lastWalkedAt[walk.key];
    return last === undefined || now - last >= restIntervalMs - cycleIntervalMs / 2;
  });
}
