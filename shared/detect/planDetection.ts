// Which pending listings a cycle walks (pure). Pending is what people wait on, so it is walked every
// cycle, whole; only when the window holds more pending pages than the token could ever grant in one go
// is it split into date parts, each small enough to finish, walked longest-unseen first.
import { PAGE_SIZE } from '../api/pagination.js';
import { addDays } from '../time/calendarDate.js';
import {
  detectWalk,
  type ListingSpec,
  listingKey,
  type PlannedWalk,
  pagesFor,
  partOf,
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
   * When pending was last walked completely on `date` (at `establishment`, where listed apart); undefined
   * if never: only where it was do the orders we know of say how many there are.
   */
  coveredAt(date: string, establishment: string | undefined): number | undefined;
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
    return splitByDate(input, whole, windowSize).map(({ part, orders }) =>
      detectWalk(part, pagesFor(orders)),
    );
  });
  return walks.sort((a, b) => walkedAt(input, a) - walkedAt(input, b));
}

/**
 * When a walk's orders were last all seen: a whole listing's last complete walk; a part's oldest date,
 * by the per-date coverage, since parts are cut anew as orders come and go and a part's key may be new.
 */
function walkedAt(input: DetectionPlanInput, walk: PlannedWalk): number {
  const { listing } = walk;
  if (listing.kind !== 'part') return input.lastWalkedAt[walk.key] ?? -1;
  let oldest = Number.POSITIVE_INFINITY;
  for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
    oldest = Math.min(oldest, input.coveredAt(date, listing.establishment) ?? -1);
  }
  return oldest;
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
    if (input.coveredAt(date, establishment) === undefined) return Math.max(counted, announced);
  }
  return counted;
}

/**
 * Consecutive dates packed into parts of at most `maxWalkPages` pages each, by the pending orders we know
 * of per date, or what a date's own first page announced when more (orders come at the end of a day's
 * listing, which a walk cut short after its first page never reads). A single date above the bound is a
 * part of its own. A date never walked is one too, sized by its own first page, or else by its share of
 * what the window's size (`windowSize`, its last first page's `meta.total`) leaves unknown, never guessed
 * past the bound: packed as empty into one part, such dates made a part too long ever to finish, walked to
 * its first page cycle after cycle; and only a date's own first page may say it is too long for any walk.
 */
function splitByDate(
  input: DetectionPlanInput,
  whole: ListingSpec,
  windowSize: number,
): Array<{ part: ListingSpec; orders: number }> {
  const { startDate, endDate, establishment } = whole;
  const partOn = (from: string, to: string): ListingSpec => partOf(whole, from, to);
  const dates: Array<{ date: string; count: number; walked: boolean; announced: number | undefined }> = [];
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) {
    const count = countPending(input.pendingByDate, establishment, { startDate: date, endDate: date });
    const coveredAt = input.coveredAt(date, establishment);
    const own = listingKey(partOn(date, date));
    // A date's own first page speaks for it unless a part holding it was walked whole since its own last
    // whole walk: then the orders we hold are newer (a date that shrank keeps its old size there).
    const ownWalkedAt = input.lastWalkedAt[own];
    const stale = coveredAt !== undefined && ownWalkedAt !== undefined && coveredAt > ownWalkedAt;
    const announced = stale ? undefined : input.knownSizes[own];
    dates.push({ date, count, walked: coveredAt !== undefined, announced });
  }
  // What the window's size leaves once the dates walked and those whose own first page was read are
  // counted, shared by the dates of which nothing is known.
  const sized = dates.reduce(
    (sum, { count, walked, announced }) => sum + Math.max(walked ? count : 0, announced ?? 0),
    0,
  );
  const unknown = dates.filter(({ walked, announced }) => !walked && announced === undefined);
  const share = unknown.length === 0 ? 0 : Math.max(0, windowSize - sized) / unknown.length;
  const most = input.maxWalkPages * PAGE_SIZE;
  const guess = Math.min(share, most);
  const parts: Array<{ part: ListingSpec; orders: number }> = [];
  // A part of several dates is sized by its own first page when that says more, but never past a walk: only
  // a date's own first page may say it is too long for any walk (a part's re-cut dates would not).
  const push = (to: string, orders: number) => {
    const part = partOn(partStart, to);
    const announced = to === partStart ? 0 : Math.min(input.knownSizes[listingKey(part)] ?? 0, most);
    parts.push({ part, orders: Math.max(orders, announced) });
  };
  let partStart = startDate;
  let orders = 0;
  let alone = false;
  for (const { date, count, walked, announced } of dates) {
    // A date never walked is a part of its own, whose first page tells its size for the next plan.
    const onDate = Math.max(count, announced ?? (walked ? 0 : guess));
    if (date > partStart && (alone || !walked || pagesFor(orders + onDate) > input.maxWalkPages)) {
      push(addDays(date, -1), orders);
      partStart = date;
      orders = 0;
    }
    orders += onDate;
    alone = !walked;
  }
  push(endDate, orders);
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
