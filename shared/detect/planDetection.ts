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
  /**
   * Whether pending was ever walked completely on `date` (at `establishment`, where listed apart): only
   * there do the orders we know of say how many there are.
   */
  covered(date: string, establishment: string | undefined): boolean;
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
    const windowSize = input.knownSizes[key] ?? 0;
    return splitByDate(input, 'pending', startDate, endDate, establishment, windowSize).map(
      ({ part, orders }) => detectWalk(part, pagesFor(orders)),
    );
  });
  return walks.sort((a, b) => (input.lastWalkedAt[a.key] ?? -1) - (input.lastWalkedAt[b.key] ?? -1));
}

/**
 * The walks one cycle takes: the most overdue, as many as fit in `maxPages` (at least one). A window split
 * into parts holds more than that, and a cycle that had to reserve it whole could never start; its parts
 * are walked over the cycles that follow, the longest unwalked first.
 */
export function walksForOneCycle(walks: readonly PlannedWalk[], maxPages: number): PlannedWalk[] {
  const taken: PlannedWalk[] = [];
  let pages = 0;
  for (const walk of walks) {
    if (taken.length > 0 && pages + walk.estimatedRequests > maxPages) break;
    taken.push(walk);
    pages += walk.estimatedRequests;
  }
  return taken;
}

/**
 * The window's pending orders we know of, once we know any: they follow every walk, split or whole. Before
 * that, or while a window never walked whole has dates never walked at all (a walk too long to finish
 * keeps its first page's orders), the size its first page announced, when larger.
 */
function sizeOf(input: DetectionPlanInput, key: string, establishment: string | undefined): number {
  const announced = input.knownSizes[key] ?? 0;
  if (input.pendingByDate.size === 0) return announced;
  const counted = countPending(input.pendingByDate, establishment);
  if (input.lastWalkedAt[key] !== undefined) return counted;
  const { startDate, endDate } = windowDates(input.today, input.window);
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) {
    if (!input.covered(date, establishment)) return Math.max(counted, announced);
  }
  return counted;
}

/**
 * Consecutive dates packed into parts of at most `maxWalkPages` pages each, by the pending orders we know
 * of per date. A single date above the bound is a part of its own; it waits for a fuller budget. Dates never
 * walked share what the window's size (`windowSize`, its last first page's `meta.total`) leaves unknown:
 * before any part was walked, or while some were not yet, they would otherwise be packed as empty into one
 * part too long ever to finish, walked to its first page cycle after cycle.
 */
function splitByDate(
  input: DetectionPlanInput,
  status: OrderStatus,
  startDate: string,
  endDate: string,
  establishment: string | undefined,
  windowSize: number,
): Array<{ part: ListingSpec; orders: number }> {
  const dates: Array<{ date: string; count: number; walked: boolean }> = [];
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) {
    const count = countPending(input.pendingByDate, establishment, { startDate: date, endDate: date });
    dates.push({ date, count, walked: input.covered(date, establishment) });
  }
  const unknown = dates.filter(({ walked }) => !walked);
  const knownTotal = dates.reduce((sum, { count, walked }) => sum + (walked ? count : 0), 0);
  const unknownEach = unknown.length === 0 ? 0 : Math.max(0, windowSize - knownTotal) / unknown.length;
  const parts: Array<{ part: ListingSpec; orders: number }> = [];
  const partUntil = (end: string): ListingSpec => ({
    kind: 'part',
    status,
    startDate: partStart,
    endDate: end,
    establishment,
  });
  let partStart = startDate;
  let orders = 0;
  for (const { date, count, walked } of dates) {
    const onDate = walked ? count : Math.max(unknownEach, count);
    if (date > partStart && pagesFor(orders + onDate) > input.maxWalkPages) {
      parts.push({ part: partUntil(addDays(date, -1)), orders });
      partStart = date;
      orders = 0;
    }
    orders += onDate;
  }
  parts.push({ part: partUntil(endDate), orders });
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
