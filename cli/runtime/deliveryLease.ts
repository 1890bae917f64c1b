// Only one process delivers a state file's outbox at a time, or two runners on one file would send the
// same delivery twice: the one holding this lease. It is claimed, kept and taken over from a run that died
// on this host by the same policy as the organizations' leases.
import {
  claimLease,
  keepLeaseUntil,
  type LeaseClaim,
  type LeaseTerms,
} from '../../shared/poll/organizationLease.js';
import type { StateStore } from '../../shared/store/stateStore.js';

/** Not an organization id (those are uuids), so it never collides with one. */
export const DELIVERY_LEASE_KEY = 'outbox-delivery';

/** What of the local runtime (localRuntime.ts, which names DELIVERY_LEASE_KEY in turn) the lease takes. */
interface LeaseHolder {
  store: StateStore;
  runId: string;
  lease: LeaseTerms;
}

export function claimDelivery(runtime: LeaseHolder, nowMs: number = Date.now()): Promise<LeaseClaim> {
  return claimLease(runtime.store, DELIVERY_LEASE_KEY, runtime.runId, nowMs, runtime.lease);
}

/** Keeps the lease a full term from now; false when another run holds it. */
export function renewDelivery(runtime: LeaseHolder, nowMs: number = Date.now()): Promise<boolean> {
  return keepLeaseUntil(runtime.store, DELIVERY_LEASE_KEY, runtime.runId, nowMs, nowMs, runtime.lease);
}
