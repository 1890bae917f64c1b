// How the AWS poller spends the budget, holds its leases and how often it polls, shared by its handler,
// the stack and the bench that measures them.
import type { LeaseTerms } from '../poll/organizationLease.js';

/**
 * How long a Lambda cycle may wait for the token's budget before deferring: a few seconds let a cycle due
 * just as another organization's reservation fills the window go ahead instead of skipping its turn.
 */
export const AWS_BUDGET_WAIT_MS = 10_000;

/** The poller Lambda's timeout (infra/pollerFunction.ts): a cycle of one minute's budget fits with room to spare. */
export const AWS_POLLER_TIMEOUT_SECONDS = 240;

/**
 * A cycle's lease runs exactly as long as the invocation may: it is taken after the invocation starts, so
 * it never runs out while the invocation can still be running, and an invocation Lambda kills at its
 * timeout leaves a lease that runs out within seconds of the kill, not minutes after. Every invocation is
 * a run of its own, so the lease goes back with the poll state; one whose process died otherwise (out of
 * memory, say) cannot be told apart from a slow one here, and is waited out.
 */
export const AWS_LEASE_TERMS: LeaseTerms = { ttlMs: AWS_POLLER_TIMEOUT_SECONDS * 1000, heldFor: 'cycle' };

/**
 * An organization's `pollIntervalSeconds` on AWS when its config does not set one (the local runner's
 * default is 10 s). On AWS every cycle is billed: a Lambda invocation waiting on the API, a DynamoDB Query
 * of every snapshot, a tick; a cycle a minute is what docs/aws.md's cost section prices. A config that sets
 * the interval gets it, down to what the budget allows.
 */
export const AWS_DEFAULT_POLL_INTERVAL_SECONDS = 60;
