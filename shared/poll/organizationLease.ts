// The lease that keeps two runs from polling one organization at once, one policy for both runtimes. A
// cycle claims it first: free, run out or already ours, it is taken (ours: renewed); held by a run known
// to have ended (holderGoneOnThisHost.ts), it is taken over at once rather than waited out. Then either it
// goes back with the poll state at the cycle's end (AWS, where every invocation is a run of its own), or
// the run keeps it until it stops (the local runner, which stays up), so that a second runner stands by
// instead of slipping in between the first one's cycles. Either way, every write of a cycle is fenced by it:
// a run paused past its lease, and taken over, writes nothing more.
import type { LeaseFence, StateStore } from '../store/stateStore.js';

export interface LeaseTerms {
  /** How long a claim holds off other runs: longer than any cycle can last. */
  ttlMs: number;
  /**
   * `cycle`: given back with the poll state at the cycle's end. `run`: kept between cycles, renewed at each
   * cycle's end to outlast the next one's due time; the run gives it back as it stops.
   */
  heldFor: 'cycle' | 'run';
  /** Whether the run a lease owner names is known to have ended. @default none is known to */
  isGone?: (owner: string) => boolean;
}

/** Five minutes: longer than any cycle, so a lease nobody gives back frees itself soon after. */
export const DEFAULT_LEASE_TERMS: LeaseTerms = { ttlMs: 5 * 60_000, heldFor: 'cycle' };

export type LeaseClaim =
  | { held: true /** The ended run whose lease this claim took over. */; takenOverFrom?: string }
  | { held: false /** Who holds it, when known. */; holder?: string };

export async function claimLease(
  store: StateStore,
  organizationId: string,
  runId: string,
  nowMs: number,
  terms: LeaseTerms,
): Promise<LeaseClaim> {
  if (await store.acquireLease(organizationId, runId, nowMs, terms.ttlMs)) return { held: true };
  const lease = await store.leaseHolder(organizationId);
  // Given back between the two calls: free now, unless another run was quicker.
  if (lease === undefined) {
    return (await store.acquireLease(organizationId, runId, nowMs, terms.ttlMs))
      ? { held: true }
      : { held: false };
  }
  if (!terms.isGone?.(lease.owner)) return { held: false, holder: lease.owner };
  // Conditional on that owner still holding it: of two runs that both found it gone, one takes it over.
  const taken = await store.acquireLease(organizationId, runId, nowMs, terms.ttlMs, {
    takeOverFrom: lease.owner,
  });
  return taken ? { held: true, takenOverFrom: lease.owner } : { held: false };
}

/**
 * What fences a cycle's writes: the lease its run claimed. Only the owner is checked, not the time: a lease
 * run out that nobody took is still safe to write under, and one taken over never again.
 */
export function cycleFence(runId: string): LeaseFence {
  return { leaseOwner: runId };
}

/**
 * After a cycle of a run that keeps its lease: renewed to last a full term past the next cycle's due
 * time, so that it never runs out between two cycles of a live run. False when another run holds it now.
 */
export async function keepLeaseUntil(
  store: StateStore,
  organizationId: string,
  runId: string,
  nowMs: number,
  nextPollAt: number,
  terms: LeaseTerms,
): Promise<boolean> {
  return store.acquireLease(organizationId, runId, nowMs, Math.max(0, nextPollAt - nowMs) + terms.ttlMs);
}
