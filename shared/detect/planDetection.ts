// Which pending listings a cycle walks (pure). Pending is what people wait on, so it is walked every
// cycle, whole; only when the window holds more pending pages than the token could ever grant in one go
// is it split into date parts, each small enough to finish, walked longest-unseen first.
import type { OrderStatus } from '../api/schemas.js';
import { addDays } from '../time/calendarDate.js';
import {
  detectWalk,
  type ListingSpec,
  listingKey,
  type PlannedWalk,
  pagesFor,
  sameEstablishment,
} from './listingSpec.js';

export interface PollWindow {
  daysBack: number;
  daysAhead: number;
}

export interface DetectionPlanInput {
  /** Today in the organization's time zone, YYYY-MM-DD. */
  today: string;
  window: PollWindow;
  /** Configured establishments, one listing each; undefined lists them all at once. */
  establishments: readonly string[] | undefined;
  /** Orders each listing held when last seen (`meta.total` of its first page), by key: the size before
   *  any pending order is known. */
  knownSizes: Readonly<Record<string, number>>;
  /** Pending orders we know of, by pickup date and establishment: where to cut a split. */
  pendingByDate: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** When each listing was last walked completely, by key (epoch ms). */
  lastWalkedAt: Readonly<Record<string, number>>;
  /** The longest walk the token can grant this organization at once. */
  maxWalkPages: number;
}

export function windowDates(today: string, window: PollWindow): { startDate: string; endDate: string } {
  return { startDate: addDays(today, -window.daysBack), endDate: addDays(today, window.daysAhead) };
}

/** Every pending walk the window needs, the most overdue first. */
export function planDetection(input: DetectionPlanInput): PlannedWalk[] {
  const { startDate, endDate } = windowDates(input.today, input.window);
  const walks = (input.establishments ?? [undefined]).flatMap((establishment) => {
    const whole: ListingSpec = { kind: 'window', status: 'pending', startDate, endDate, establishment };
    const key = listingKey(whole);
    const pages = pagesFor(sizeOf(input, key, establishment));
    if (pages <= input.maxWalkPages) return [detectWalk(whole, pages)];
    return splitByDate(input, 'pending', startDate, endDate, establishment).map((part) =>
      detectWalk(part, pagesFor(sizeOf(input, listingKey(part), establishment, part))),
    );
  });
  return walks.sort((a, b) => (input.lastWalkedAt[a.key] ?? -1) - (input.lastWalkedAt[b.key] ?? -1));
}

/**
 * The pending orders we know of there, once we know any: they follow every walk, split or whole. Before
 * that, the size the listing's first page announced.
 */
function sizeOf(
  input: DetectionPlanInput,
  key: string,
  establishment: string | undefined,
  range?: { startDate: string; endDate: string },
): number {
  return input.pendingByDate.size > 0
    ? countPending(input.pendingByDate, establishment, range)
    : (input.knownSizes[key] ?? 0);
}

/**
 * Consecutive dates packed into parts of at most `maxWalkPages` pages each, by the pending orders we know
 * of per date. A single date above the bound is a part of its own; it waits for a fuller budget.
 */
function splitByDate(
  input: DetectionPlanInput,
  status: OrderStatus,
  startDate: string,
  endDate: string,
  establishment: string | undefined,
): ListingSpec[] {
  const parts: ListingSpec[] = [];
  let partStart = startDate;
  let orders = 0;
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) {
    const onDate = countPending(input.pendingByDate, establishment, { startDate: date, endDate: date });
    if (date > partStart && pagesFor(orders + onDate) > input.maxWalkPages) {
      parts.push({ kind: 'part', status, startDate: partStart, endDate: addDays(date, -1), establishment });
      partStart = date;
      orders = 0;
    }
    orders += onDate;
  }
  parts.push({ kind: 'part', status, startDate: partStart, endDate, establishment });
  return parts;
}

/** Pending orders we know of, at `establishment` or at any, on the dates of `range` or on all. */
export function countPending(
  byDate: DetectionPlanInput['pendingByDate'],
  establishment: string | undefined,
  range?: { startDate: string; endDate: string },
): number {
  let count = 0;
  for (const [date, byEstablishment] of byDate) {
    if (range && (date < range.startDate || date > range.endDate)) continue;
    for (const [uuid, n] of byEstablishment)
      if (establishment === undefined || sameEstablishment(uuid, establishment)) count += n;
  }
  return count;
}
