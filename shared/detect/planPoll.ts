// The poll planner (pure): which listings to fetch this cycle within the token's remaining request budget.
// Pending orders are what people wait on, so their listings come first; other statuses follow, all of them
// when the budget allows, otherwise the longest-unseen first.
import { PAGE_SIZE } from '../api/pagination.js';
import { addDays } from '../time/calendarDate.js';

export interface PlannedListing {
  /** Identifies the listing across cycles: `status` or `status@establishment`. */
  key: string;
  status: string;
  startDate: string;
  endDate: string;
  establishment: string | undefined;
  /** Requests the walk should take, from the listing's last known size. */
  estimatedRequests: number;
}

export interface PollPlanInput {
  /** Today in the organization's time zone, YYYY-MM-DD. */
  today: string;
  window: { daysBack: number; daysAhead: number };
  statuses: readonly string[];
  /** Poll each of these establishments separately; undefined polls them all in one listing. */
  establishments: readonly string[] | undefined;
  /** Orders in each listing at its last complete walk, by key. */
  listingSizes: Readonly<Record<string, number>>;
  /** When each listing was last walked completely, by key (epoch ms). */
  lastFetchedAt: Readonly<Record<string, number>>;
  /** Requests the token may still make now. */
  budget: number;
}

export interface PollPlan {
  listings: PlannedListing[];
  /** Keys left for a later cycle because the budget did not stretch to them. */
  deferred: string[];
  estimatedRequests: number;
}

export function windowDates(
  today: string,
  window: PollPlanInput['window'],
): { startDate: string; endDate: string } {
  return { startDate: addDays(today, -window.daysBack), endDate: addDays(today, window.daysAhead) };
}

export function listingKey(status: string, establishment: string | undefined): string {
  return establishment === undefined ? status : `${status}@${establishment}`;
}

/** Pages a listing of `size` orders takes; an empty listing still costs the one request that shows it. */
export function pagesFor(size: number | undefined): number {
  return Math.max(1, Math.ceil((size ?? 0) / PAGE_SIZE));
}

export function planPoll(input: PollPlanInput): PollPlan {
  const { startDate, endDate } = windowDates(input.today, input.window);
  const candidates = input.statuses.flatMap((status) =>
    (input.establishments ?? [undefined]).map((establishment): PlannedListing => {
      const key = listingKey(status, establishment);
      return {
        key,
        status,
        startDate,
        endDate,
        establishment,
        estimatedRequests: pagesFor(input.listingSizes[key]),
      };
    }),
  );
  const pending = candidates.filter((listing) => listing.status === 'pending');
  const others = candidates
    .filter((listing) => listing.status !== 'pending')
    .sort((a, b) => (input.lastFetchedAt[a.key] ?? -1) - (input.lastFetchedAt[b.key] ?? -1));
  const plan = fitBudget(pending, input.budget);
  // Other statuses never take the requests that pending listings are waiting for.
  if (plan.deferred.length > 0) return { ...plan, deferred: [...plan.deferred, ...others.map((l) => l.key)] };
  const rest = fitBudget(others, input.budget - plan.estimatedRequests);
  return {
    listings: [...plan.listings, ...rest.listings],
    deferred: rest.deferred,
    estimatedRequests: plan.estimatedRequests + rest.estimatedRequests,
  };
}

export interface VanishedOrder {
  uuid: string;
  pickupDate: string;
  /** The status it had when last seen. */
  status: string;
  establishment: string;
}

export interface ResolutionPlanInput {
  vanished: readonly VanishedOrder[];
  statuses: readonly string[];
  /** Whether this cycle already walked, completely, the listing of `status` that would hold the order. */
  isCovered: (status: string, order: VanishedOrder) => boolean;
  budget: number;
}

/**
 * Narrow listings (one status, one pickup date) that can tell where vanished orders went: one request
 * each, usually, against a full sweep of every other status.
 */
export function planResolution(input: ResolutionPlanInput): PollPlan {
  const listings = new Map<string, PlannedListing>();
  const byDate = [...input.vanished].sort((a, b) => a.pickupDate.localeCompare(b.pickupDate));
  for (const order of byDate) {
    for (const status of input.statuses) {
      if (status === order.status || input.isCovered(status, order)) continue;
      const key = `${status}:${order.pickupDate}`;
      if (listings.has(key)) continue;
      listings.set(key, {
        key,
        status,
        startDate: order.pickupDate,
        endDate: order.pickupDate,
        establishment: undefined,
        estimatedRequests: 1,
      });
    }
  }
  return fitBudget([...listings.values()], input.budget);
}

/** Takes listings in order while they fit; a listing that does not fit is deferred whole, never cut short. */
function fitBudget(listings: PlannedListing[], budget: number): PollPlan {
  const plan: PollPlan = { listings: [], deferred: [], estimatedRequests: 0 };
  for (const listing of listings) {
    if (plan.estimatedRequests + listing.estimatedRequests <= budget) {
      plan.listings.push(listing);
      plan.estimatedRequests += listing.estimatedRequests;
    } else {
      plan.deferred.push(listing.key);
    }
  }
  return plan;
}
