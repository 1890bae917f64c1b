// How a phase walks one listing within the token's budget: a walk that turns out longer than reserved gets
// the rest reserved before its second page, or stops there. Shared by the walks of pending, the look-ups
// and the sweep; each returns a WalkOutcome, from which the report and the poll state are made. Only the
// failures the client defines are the walk's error; anything else fails the cycle.
import {
  AdminApiError,
  FixByHandApiError,
  NetworkError,
  RequestBudgetExhaustedError,
} from '../api/errors.js';
import type { OrderQuery } from '../api/orderQuery.js';
import type { Order } from '../api/schemas.js';
import type { ListingSpec, PlannedWalk } from '../detect/listingSpec.js';
import type { WalkResult } from '../detect/walkResult.js';
import { NotifierError } from '../errors/notifierError.js';
import { HttpTransportError } from '../http/httpErrors.js';
import type { CycleContext } from './cycleContext.js';
import { UnexpectedCycleError } from './errors.js';
import type { CycleBudget } from './ordersSource.js';

export interface WalkOutcome extends WalkResult {
  /** Not started: the cycle had stopped, or the budget could not pay for a first page. */
  deferred: boolean;
  /** Not started because an earlier walk's failure stopped the cycle: the budget had nothing to do with it. */
  stopped?: true;
  /** Requests the walk made. */
  requests: number;
}

export interface WalkOptions {
  /** An earlier walk's failure will fail this one too: it is deferred without a request. */
  stopped: boolean;
  /** A look-up ends as soon as what it looks for is found. */
  foundEnough?: (records: readonly Order[]) => boolean;
}

export async function walkListing(
  context: CycleContext,
  walk: PlannedWalk,
  options: WalkOptions,
): Promise<WalkOutcome> {
  const { api } = context.deps;
  if (options.stopped) return { walk, deferred: true, stopped: true, requests: 0 };
  if (!(await afford(api.budget, 1))) return { walk, deferred: true, requests: 0 };
  const requestsBefore = api.requestCount;
  const lastAllowed =
    walk.maxPages === undefined ? Number.POSITIVE_INFINITY : walk.fromPage + walk.maxPages - 1;
  const outcome: WalkOutcome = { walk, deferred: false, requests: 0 };
  try {
    outcome.listing = await api.listOrders(queryOf(walk.listing), {
      listing: walk.key,
      fromPage: walk.fromPage,
      ...(options.foundEnough ? { foundEnough: options.foundEnough } : {}),
      mayContinue: async ({ page, lastPage }) => {
        if (page > lastAllowed) return false;
        return afford(api.budget, Math.min(lastPage ?? page, lastAllowed) - page + 1);
      },
    });
  } catch (error) {
    outcome.error = asListingFailure(context, walk.key, error);
  }
  outcome.requests = api.requestCount - requestsBefore;
  return outcome;
}

/**
 * A listing's error, when the API or the transport failed in a way the client defines: a failure line of
 * the cycle, the other listings walked all the same. Anything else is no listing's failure and is thrown:
 * a store's error (the budget's counter) as it is, and what no class of ours explains (a TypeError, a
 * RangeError) as the bug it is, with its stack.
 */
export function asListingFailure(context: CycleContext, listing: string, error: unknown): Error {
  if (error instanceof AdminApiError || error instanceof HttpTransportError) return error;
  if (error instanceof NotifierError) throw error;
  throw new UnexpectedCycleError(context.organization.name, `listing ${listing}`, error);
}

/** Makes sure `pages` more requests are reserved, waiting a while for them; false when they are not to be had. */
export async function afford(budget: CycleBudget, pages: number): Promise<boolean> {
  const missing = pages - budget.reserved;
  if (missing <= 0) return true;
  return (await budget.reserve(missing, missing)) > 0;
}

/**
 * Whether this failure fails every other listing the same way: a rejected token or organization, an API
 * unreachable after the client's retries (every listing goes to the same origin), an empty budget.
 */
export function failsEveryListing(error: unknown): boolean {
  return (
    error instanceof RequestBudgetExhaustedError ||
    error instanceof NetworkError ||
    error instanceof FixByHandApiError
  );
}

/** Whether one of these walks failed in a way every later walk would. */
export function stopsCycle(outcomes: readonly WalkOutcome[]): boolean {
  return outcomes.some((outcome) => outcome.error !== undefined && failsEveryListing(outcome.error));
}

function queryOf(listing: ListingSpec): OrderQuery {
  return {
    status: listing.status,
    startDate: listing.startDate,
    endDate: listing.endDate,
    ...(listing.establishment ? { establishment: listing.establishment } : {}),
    ...(listing.kind === 'narrow' && listing.paymentMethod ? { paymentMethod: listing.paymentMethod } : {}),
  };
}
