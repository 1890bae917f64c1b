// The poll cycle's plan: what this cycle walks and what it may cost (pure). Pending's walks come from the
// window and the sizes remembered; the pace sets the interval and the sweep's share; a baseline pass of the
// sweep is paid whole or not started, so it is asked for with the rest.
import type { OrderStatus } from '../api/schemas.js';
import { type Closing, closingsOn } from '../detect/closingTimes.js';
import { coverageKey, pendingReadAt } from '../detect/coverage.js';
import { knownListed } from '../detect/listingCheck.js';
import { type ListingSpec, type PlannedWalk, pagesOf, tooLargeToWalk } from '../detect/listingSpec.js';
import { gapFor, type Pacing, pacePoll } from '../detect/pacePoll.js';
import { type CadencePlan, HOT_MIN_INTERVAL_MS, planCadence } from '../detect/planCadence.js';
import { countPending, planDetection, walksForOneCycle } from '../detect/planDetection.js';
import { knownSweepPages, planSweep, TERMINAL_STATUSES } from '../detect/planSweep.js';
import type { Snapshot } from '../detect/snapshot.js';
import {
  checkedWalks,
  restParts,
  restPartsNow,
  todayFirstWalks,
  todayIsFirst,
} from '../detect/todayFirst.js';
import type { PollState } from '../store/pollState.js';
import { changeRates } from './changeRates.js';
import type { CycleContext, PolledOrganization } from './cycleContext.js';
import type { CycleBudget } from './ordersSource.js';

/** The largest share of a minute's budget one walk may need: larger listings are split. */
const MAX_WALK_SHARE = 0.5;
/** The cold gap of an organization that sets no coldSweepMinutes, as the config's default. */
const DEFAULT_COLD_SWEEP_MINUTES = 15;
/** Sweep pages owed are capped, so a long deferral does not turn into one long sweep burst. */
const MAX_SWEEP_CREDIT_CYCLES = 1.5;
/** While today is first, its cycles may come this many times as often as the cadence's least interval. */
const TODAY_SPEEDUP = 2;

export interface CyclePlan {
  cadence: CadencePlan;
  /**
   * Pending's walks: the window's, most overdue first, as many as fit in half a minute's budget; or, while
   * today is first, today's and a part of the rest.
   */
  detection: PlannedWalk[];
  /** Pending's walks of more pages than the token may ask in a minute: read a page a cycle, and told as failures. */
  unwalkable: PlannedWalk[];
  /** Today is first and this cycle walks today's pending alone: the budget had no room for a part of the rest. */
  todayOnly: boolean;
  /** While today is first, today's walks: what the cycle walks alone when the budget has no room for the rest's part now. */
  today: PlannedWalk[] | undefined;
  /**
   * The share of the pending orders on days other than today that `detection` walks: a part of the rest of
   * the window holds a few of its dates, the whole window all of them (changeRates.ts).
   */
  otherDaysShare: number;
  /** The least the cycle must be able to pay for before it walks anything: all of pending. */
  detectionRequests: number;
  /**
   * Orders earlier cycles saw leave pending and could not finish looking for (the window was full): each
   * takes at least a request, and, while today is first, goes before the rest's part (see leastToReserve).
   * Counted up to the look-ups a cycle reserves for, and so that today's pages and they take at most the
   * share of a minute one walk may: a lunch served while the completed listing failed leaves more owed than
   * a window holds (a listing's page finds many at a time), and a cycle that must reserve more than the
   * window holds would never poll again.
   */
  owedLookups: number;
  /** What the cycle reserves for look-ups beyond pending's pages (see lookupAllowance). */
  lookupAllowance: number;
  pace: Pacing;
  /** Sweep pages this cycle may walk: its share of the pace, plus what earlier cycles were owed. */
  sweepBudget: number;
  /** Pages of a baseline pass of the sweep due now (0 when none is). */
  baselinePages: number;
  /** What the cycle is planned to cost: the most it reserves up front. */
  planned: number;
}

export type PlanBudget = Pick<CycleBudget, 'usablePerMinute' | 'holdMsFor'>;

export function planCycle(
  context: CycleContext,
  state: PollState,
  snapshots: ReadonlyMap<string, Snapshot>,
  budget: PlanBudget,
): CyclePlan {
  const { organization, startedAt, window } = context;
  const byDate = pendingByDate(snapshots, window);
  const maxWalkPages = Math.max(1, Math.floor(budget.usablePerMinute * MAX_WALK_SHARE));
  const windowWalks = planDetection({
    today: context.today,
    window: organization.window,
    establishments: organization.establishments,
    knownSizes: state.listings.sizes,
    pendingByDate: byDate,
    lastWalkedAt: state.listings.walkedAt,
    maxWalkPages,
    coveredAt: (date, establishment) => state.coverage.pendingCoveredAt[coverageKey(date, establishment)],
  });
  const windowRequests = pagesOf(windowWalks);
  // Told, and read a page a cycle rather than whole: a walk of more pages than a minute allows never
  // finishes, and the rest of the window is still walked; its first page says when it is short enough
  // again. Only a date part can be one (a window over half a minute's budget is split).
  const unwalkable = windowWalks.filter((walk) =>
    tooLargeToWalk(walk.estimatedRequests, budget.usablePerMinute),
  );
  const walkable = walksForOneCycle(
    windowWalks.filter((walk) => !unwalkable.includes(walk)),
    maxWalkPages,
  );
  // Probes only where the minute holds them beside the walks: a cycle must never need more than it.
  const probes = unwalkable
    .slice(0, Math.max(0, budget.usablePerMinute - pagesOf(walkable)))
    .map((walk) => ({ ...walk, maxPages: 1, estimatedRequests: 1 }));
  const cycleWalks = [...walkable, ...probes];
  const cadence = planCadence({
    cadence: organization.cadence ?? 'auto',
    establishments: state.establishments?.records ?? null,
    unreadable: state.establishments?.unreadable,
    polled: organization.establishments,
    timeZone: organization.timeZone,
    now: startedAt,
    normalIntervalMs:
      (context.deps.leastIntervalSeconds?.({
        pollIntervalSeconds: organization.pollIntervalSeconds,
        pendingPages: windowRequests,
        averageLookups: state.lookups.averageRequests,
        organizationsOnToken: context.deps.organizationsOnToken ?? 1,
        usablePerMinute: budget.usablePerMinute,
      }) ?? organization.pollIntervalSeconds) * 1000,
    coldIntervalMs: (organization.coldSweepMinutes ?? DEFAULT_COLD_SWEEP_MINUTES) * 60_000,
  });
  const expected = pagesOf(cycleWalks) + state.lookups.averageRequests;
  const sweepPeriodMs = organization.sweepIntervalSeconds * 1000;
  // Under "auto" on a working day only: "fixed" keeps pollIntervalSeconds, as it asked.
  const cut =
    (cadence.mode === 'normal' || cadence.mode === 'hot') &&
    todayIsFirst({
      today: context.today,
      now: startedAt,
      timeZone: organization.timeZone,
      establishments: state.establishments?.records ?? null,
      polled: organization.establishments,
    })
      ? todayFirstWalks(windowWalks, context.today, (listing, key) =>
          byDate.size > 0 ? countPending(byDate, listing.establishment, listing) : state.listings.sizes[key],
        )
      : undefined;
  // Today's listings longer than half a minute's budget (establishments listed apart, each with a big
  // lunch): a cycle that had to reserve them all every time could never start; the window's parts serve.
  const today = cut && pagesOf(cut.today) <= maxWalkPages ? cut : undefined;
  const todayPages = today ? pagesOf(today.today) : 0;
  const pace = pacePoll({
    usablePerMinute: budget.usablePerMinute,
    organizationsOnToken: context.deps.organizationsOnToken ?? 1,
    detectionRequests: expected,
    holdMs: budget.holdMsFor(expected),
    // Until the baseline has read every terminal listing, its size is unknown: the sweep gets its largest
    // steady share, never more.
    sweepPages:
      knownSweepPages({
        statuses: sweptStatuses(organization),
        ...window,
        establishments: organization.establishments,
        knownSizes: state.listings.sizes,
      }) ?? Number.POSITIVE_INFINITY,
    // A cold cycle carries a whole sweep: cycles are too far apart for slices of it.
    sweepPeriodMs: cadence.mode === 'cold' ? Math.max(sweepPeriodMs, cadence.minIntervalMs) : sweepPeriodMs,
    minIntervalMs: today
      ? Math.max(HOT_MIN_INTERVAL_MS, cadence.minIntervalMs / TODAY_SPEEDUP)
      : cadence.minIntervalMs,
    todayFirst: today && {
      todayRequests: state.pace.todayRequests ?? todayPages,
      lookups: state.lookups.averageRequests,
      restPages: pagesOf(today.rest),
      mix: state.pace.changes && changeRates(state.pace.changes),
    },
  });
  // A listing names an establishment only when establishments are listed apart: keyed as recordCoverage keys it.
  const readAt = (listing: ListingSpec, date: string) =>
    pendingReadAt(state.coverage, date, listing.establishment);
  const gapMs = gapFor(pace, state.pace.averageCycleRequests);
  const looking = new Set(Object.keys(state.lookups.searched));
  const checked = (walks: PlannedWalk[], wholeEveryMs: number, closings: Closing[]) =>
    checkedWalks(walks, {
      now: startedAt,
      wholeEveryMs,
      gapMs,
      walkedAt: state.listings.walkedAt,
      unpredicted: state.listings.unpredicted ?? [],
      closings,
      knownListed: (listing) => knownListed(snapshots, listing, looking),
    });
  // The rest cut as fine as its dates allow: each date is read when its period is up, not a part a cycle.
  const restNow = today
    ? restPartsNow(
        restParts(
          today.rest,
          Math.max(1, pagesOf(today.rest)),
          (listing, date) => countPending(byDate, listing.establishment, { startDate: date, endDate: date }),
          readAt,
        ),
        { now: startedAt, periodMs: pace.restPeriodMs, gapMs },
        readAt,
        (taken, part) => todayPages + pagesOf(taken) + pagesOf(part) <= maxWalkPages,
      )
    : [];
  const todayNow =
    today &&
    checked(
      today.today,
      pace.todayWholeMs,
      closingsOn(state.establishments?.records ?? [], context.today, organization.timeZone),
    );
  // Today's listings first: what the kitchen waits on is read before the rest of the window.
  const detection = todayNow ? [...todayNow, ...checked(restNow, pace.restWholeMs, [])] : cycleWalks;
  const restOrders = today ? countPendingIn(byDate, today.rest) : 0;
  const otherDaysShare = !today ? 1 : restOrders === 0 ? 0 : countPendingIn(byDate, restNow) / restOrders;
  const detectionRequests = pagesOf(detection);
  const sweepBudget = Math.min(
    state.sweep.credit + pace.sweepPagesPerCycle,
    Math.max(1, pace.sweepPagesPerCycle * MAX_SWEEP_CREDIT_CYCLES),
  );
  const nextSweep = planSweepPages(context, state, sweepBudget);
  const baselinePages =
    nextSweep && nextSweep.walk.maxPages === undefined ? nextSweep.walk.estimatedRequests : 0;
  const allowance = lookupAllowance(state.lookups.averageRequests);
  const owed = Math.min(owedLookups(state.lookups), allowance, Math.max(0, maxWalkPages - todayPages));
  const planned = detectionRequests + allowance + Math.max(baselinePages, Math.floor(sweepBudget));
  return {
    cadence,
    detection,
    unwalkable,
    todayOnly: false,
    today: todayNow,
    detectionRequests,
    otherDaysShare,
    owedLookups: owed,
    lookupAllowance: allowance,
    pace,
    sweepBudget,
    baselinePages,
    planned,
  };
}

/**
 * The least a cycle must reserve before it walks anything: all of pending; or, while today is first, today's
 * pages, which it may fall back on, and a request for each look-up owed. An order known to have left
 * pending is news waiting to be told (a lunch canceled); a part of the rest only may hold some. Without
 * this, a window the walks filled every cycle cut the same look-up short after its first page cycle after
 * cycle (a cancellation told two minutes late on AWS, where a cycle waits at most 10 s for room).
 */
export function leastToReserve(plan: CyclePlan): number {
  return plan.today && !plan.todayOnly ? pagesOf(plan.today) + plan.owedLookups : plan.detectionRequests;
}

/**
 * The plan as the reservation allows it: a cycle granted less than its pages and its owed look-ups walks
 * today's alone, at once, rather than waiting for room (the rest's part, unwalked, is the one due next).
 */
export function yieldToToday(plan: CyclePlan, granted: number): CyclePlan {
  if (!plan.today || plan.todayOnly || granted >= plan.detectionRequests + plan.owedLookups) return plan;
  return {
    ...plan,
    detection: plan.today,
    todayOnly: true,
    detectionRequests: pagesOf(plan.today),
    otherDaysShare: 0,
  };
}

/** Orders still being looked for: remembered unresolved, and not waiting for the window's walks instead. */
function owedLookups(lookups: PollState['lookups']): number {
  const waiting = lookups.waitingSince ?? {};
  return Object.keys(lookups.searched).filter((uuid) => waiting[uuid] === undefined).length;
}

/**
 * What a cycle reserves beyond pending's pages for the look-ups it may need and a pending listing grown by
 * a page since it was last counted: twice the usual look-ups and one more. Reserved up front, they go out
 * with the walk; a request beyond the reservation waits for the window to free a slot, which on a token
 * near its limit is seconds in the middle of the cycle, and a walk that waits between pages is one the
 * world moves under. What the cycle does not use goes back when it ends.
 */
export function lookupAllowance(averageLookups: number): number {
  return Math.ceil(2 * averageLookups) + 1;
}

/** The sweep's next walk of at most `pages` pages, from its progress; null when nothing is due. */
export function planSweepPages(
  context: CycleContext,
  state: Pick<PollState, 'sweep' | 'listings'>,
  pages: number,
): ReturnType<typeof planSweep> {
  const { organization, startedAt, window } = context;
  return planSweep({
    statuses: sweptStatuses(organization),
    ...window,
    establishments: organization.establishments,
    progress: state.sweep.inProgress,
    sweptAt: state.sweep.sweptAt,
    knownSizes: state.listings.sizes,
    pages,
    now: startedAt,
  });
}

/** Terminal statuses worth sweeping: those whose transitions are announced. */
function sweptStatuses(organization: PolledOrganization): OrderStatus[] {
  return organization.statuses.filter((status) => TERMINAL_STATUSES.includes(status));
}

function pendingByDate(
  snapshots: ReadonlyMap<string, Snapshot>,
  window: { startDate: string; endDate: string },
): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const snapshot of snapshots.values()) {
    if (snapshot.status !== 'pending' || snapshot.missingSince !== null) continue;
    if (snapshot.pickupDate < window.startDate || snapshot.pickupDate > window.endDate) continue;
    const byEstablishment = counts.get(snapshot.pickupDate) ?? new Map<string, number>();
    byEstablishment.set(
      snapshot.establishmentUuid,
      (byEstablishment.get(snapshot.establishmentUuid) ?? 0) + 1,
    );
    counts.set(snapshot.pickupDate, byEstablishment);
  }
  return counts;
}

/** Pending orders we know of on the dates of these walks. */
function countPendingIn(
  byDate: ReadonlyMap<string, ReadonlyMap<string, number>>,
  walks: readonly PlannedWalk[],
): number {
  return walks.reduce((sum, { listing }) => sum + countPending(byDate, listing.establishment, listing), 0);
}
