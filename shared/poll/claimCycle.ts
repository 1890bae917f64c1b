// The poll cycle's claim: the organization's lease, so that no two runs poll it at once. Not held, the cycle
// is skipped with who holds it; lost during the cycle (a fenced write refused), the cycle ends as skipped too.
import type { LeaseLostError } from '../store/errors.js';
import type { CycleContext } from './cycleContext.js';
import { describeLeaseOwner } from './localRunId.js';
import { claimLease, DEFAULT_LEASE_TERMS } from './organizationLease.js';

export type CycleClaim =
  | { held: true /** The ended run whose lease was taken over. */; takenOverFrom?: string }
  | {
      held: false /** Why the cycle is skipped, naming the holder when known. */;
      reason: string;
      holder?: string;
    };

/** How a cycle whose lease was taken over during it reports: a skip that names the loss and the holder. */
export function leaseLostReport(error: LeaseLostError): {
  outcome: 'skipped';
  leaseLost: true;
  reason: string;
  leaseHolder?: string;
} {
  const holder = error.holder === undefined ? '' : ` (${describeLeaseOwner(error.holder)})`;
  return {
    outcome: 'skipped',
    leaseLost: true,
    reason: `lease lost during the cycle to another run${holder}: nothing more of this cycle was written, and that run's state stands`,
    ...(error.holder === undefined ? {} : { leaseHolder: error.holder }),
  };
}

export async function claimCycle(context: CycleContext): Promise<CycleClaim> {
  const { organization, deps, startedAt } = context;
  const claim = await claimLease(
    deps.store,
    organization.id,
    deps.runId,
    startedAt,
    deps.lease ?? DEFAULT_LEASE_TERMS,
  );
  if (claim.held) return claim;
  const holder = claim.holder === undefined ? '' : `, ${describeLeaseOwner(claim.holder)},`;
  return {
    held: false,
    reason: `another run${holder} is polling this organization`,
    ...(claim.holder === undefined ? {} : { holder: claim.holder }),
  };
}
