// What a cycle reports: the report's shape, and the notes each phase contributes to it (the listings it
// walked, failures, problems, what it deferred), which the cycle puts together in phase order.
import { NetworkError, TokenRejectedError } from '../api/errors.js';
import type { ListingProblem } from '../api/listingProblem.js';
import type { WalkPurpose } from '../detect/listingSpec.js';
import type { CadenceMode } from '../detect/planCadence.js';
import type { VanishedOrder } from '../detect/planResolution.js';
import { isTrustworthy } from '../detect/walkResult.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { CycleContext } from './cycleContext.js';
import type { WalkOutcome } from './walkListing.js';

export interface ListingReport {
  key: string;
  purpose: WalkPurpose;
  status: string;
  startDate: string;
  endDate: string;
  /** Walked completely (no malformed record) and consistently. */
  trustworthy: boolean;
  orders: number;
  pages: number;
  error?: string;
}

export interface PollReport {
  organization: { id: string; name: string };
  /**
   * `skipped`: another run holds the lease. `deferred`: the token's budget could not pay for pending now;
   * not a failure, the cycle comes again when it can.
   */
  outcome: 'polled' | 'skipped' | 'deferred';
  reason?: string;
  /** Skipped: the run holding the lease, when known. */
  leaseHolder?: string;
  /**
   * Skipped midway: the lease ran out during the cycle and another run took it, so a write was refused
   * (nothing of it made) and the cycle stopped there; `reason` says so.
   */
  leaseLost?: true;
  /** The ended run whose lease this cycle took over instead of waiting it out. */
  leaseTakenOverFrom?: string;
  /** Every walk started was fetched without error. */
  ok: boolean;
  /**
   * No request of the cycle got an answer: the API could not be reached (its failure says why), so the
   * requests, the budget left and what was not walked say nothing about the budget.
   */
  apiUnreachable?: true;
  /**
   * The API rejected the token (401 or 403, a TokenRejectedError): the organization is marked "token
   * rejected: put a new token" and its next cycle is a slow retry (planNextCycle.ts).
   */
  tokenRejected?: true;
  requests: number;
  /** Requests by what they were for: pending, look-ups of vanished orders, the terminal sweep. */
  requestsFor: Record<WalkPurpose, number> & {
    /** GET /establishments, when the cache was refreshed this cycle. */
    establishments?: number;
  };
  /** Requests the token has left this minute; null when the budget's counter could not be read. */
  budgetRemaining: number | null;
  listings: ListingReport[];
  /** Walks left for a later cycle because the budget did not stretch to them. */
  deferred: string[];
  ordersSeen: number;
  /** Orders that left a completely walked pending listing this cycle, as last seen. */
  vanished: VanishedOrder[];
  /** Events newly recorded this cycle, in commit order. */
  events: NotifierEvent[];
  /**
   * When each new event's change happened at the source (epoch ms), by event id, for the detection
   * latency. Absent where the order does not tell, and for orders that existed before they could be seen
   * (announced only because of emitExisting): their age is not a delay in detecting them.
   */
  sourceTimes: Record<string, number>;
  /** Orders another run changed first; they are looked at again next cycle. */
  conflicts: number;
  /** One line per failure, naming the listing and the cause. */
  failures: string[];
  /**
   * What was wrong with listings fetched without error, every one of them: skipped records, inconsistent
   * walks. Not failures: the cycle did what it could with the rest, and drew no conclusion from absence.
   */
  problems: ListingProblem[];
  /** When the next cycle is due (epoch ms), from the pace. */
  nextPollAt: number;
  /**
   * The earliest the cadence allows the next cycle (epoch ms): its least interval after this cycle's start.
   * A runner that paces a shared token's round itself polls the organization when its turn comes, but never
   * before this. Absent where no cycle ran.
   */
  earliestNextPollAt?: number;
  /** Today was first, and the cycle walked today's pending alone: no room for its part of the rest of the window. */
  todayOnly?: true;
  /** How closely the cycle's cadence watched (planCadence); absent when no cycle ran. */
  cadence?: CadenceMode;
}

/** What one phase adds to the report's lists, in the order it did things. */
export interface CycleNotes {
  listings: ListingReport[];
  failures: string[];
  problems: ListingProblem[];
  deferred: string[];
}

export const NO_NOTES: CycleNotes = { listings: [], failures: [], problems: [], deferred: [] };

/** The notes of walks, in the order they were walked. */
export function notesOfWalks(context: CycleContext, outcomes: readonly WalkOutcome[]): CycleNotes {
  const notes: CycleNotes = { listings: [], failures: [], problems: [], deferred: [] };
  for (const outcome of outcomes) {
    const { walk, listing, error } = outcome;
    if (outcome.deferred) {
      // Left for the budget, and said so; a walk the cycle's failure stopped is that failure's to explain.
      if (!outcome.stopped) notes.deferred.push(walk.key);
      continue;
    }
    notes.listings.push({
      key: walk.key,
      purpose: walk.purpose,
      status: walk.listing.status,
      startDate: walk.listing.startDate,
      endDate: walk.listing.endDate,
      trustworthy: isTrustworthy(outcome),
      // A check's orders include those it proved still listed without reading them.
      orders: (listing?.records.length ?? 0) + (outcome.carried?.length ?? 0),
      pages: listing?.pages ?? 0,
      ...(listing ? {} : { error: error?.message ?? 'failed' }),
    });
    if (!listing) {
      notes.failures.push(
        error
          ? (context.deps.describeFailure?.(error) ?? error.message)
          : `${context.organization.name}: listing ${walk.key} failed`,
      );
      continue;
    }
    notes.problems.push(...listing.problems);
    if (listing.stoppedEarly && walk.purpose === 'detect') notes.deferred.push(walk.key);
  }
  return notes;
}

/** Whether every walk the cycle started found the API unreachable, so that no request got an answer. */
export function apiUnreachable(outcomes: readonly WalkOutcome[]): boolean {
  const started = outcomes.filter((outcome) => !outcome.deferred);
  return (
    started.length > 0 &&
    started.every((outcome) => outcome.listing === undefined && outcome.error instanceof NetworkError)
  );
}

/** Whether the API rejected the token in any of these walks (401 or 403). */
export function tokenRejected(outcomes: readonly WalkOutcome[]): boolean {
  return outcomes.some((outcome) => outcome.error instanceof TokenRejectedError);
}

/** The notes of several phases, in order. */
export function joinNotes(...parts: readonly CycleNotes[]): CycleNotes {
  return {
    listings: parts.flatMap((part) => part.listings),
    failures: parts.flatMap((part) => part.failures),
    problems: parts.flatMap((part) => part.problems),
    deferred: parts.flatMap((part) => part.deferred),
  };
}

/**
 * Why this cycle walked no pending listing whole, in one clause, from the notes of its walks; undefined
 * when it did.
 */
export function pendingShortfall(notes: CycleNotes): string | undefined {
  const failed = notes.listings.find((listing) => listing.purpose === 'detect' && listing.error);
  if (failed) return `listing ${failed.key} failed (${failed.error})`;
  const cut = notes.listings.find((listing) => listing.purpose === 'detect' && !listing.trustworthy);
  if (cut) return `listing ${cut.key} was not walked whole and consistently`;
  if (notes.deferred.some((key) => key.startsWith('pending')))
    return 'the request budget did not stretch to it';
  return undefined;
}
