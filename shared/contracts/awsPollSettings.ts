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
 * of every snapshot, a tick; a cycle a minute is what docs/aws.md's cost section prices for the reference
 * organization, and a small one gets AWS_SMALL_ORGANIZATION_INTERVAL_SECONDS. A config that sets an
 * interval gets it, 60 included, down to what the budget allows: the stack compiles into the poller's
 * bundle which organizations took this default (shared/contracts/bundledConfig.ts).
 */
export const AWS_DEFAULT_POLL_INTERVAL_SECONDS = 60;

/** An organization whose pending listing fits in this many pages is small: its cycle costs a few requests. */
export const AWS_SMALL_ORGANIZATION_PAGES = 2;

/**
 * The default interval of a small organization on AWS: a change lands at a uniformly random moment, so its
 * p95 is about 0.95 × 15 s plus the walk and the whole-second tick, under 20 s; at about $0.0000059 a
 * small cycle, 172,800 cycles a month cost about $1.02, and the organization about $1.91 with its metrics,
 * alarm, watchdog and events (the README's cost section).
 */
export const AWS_SMALL_ORGANIZATION_INTERVAL_SECONDS = 15;

export interface IntervalBySizeInput {
  /** The organization's configured interval: only the AWS default follows the organization's size. */
  pollIntervalSeconds: number;
  /** The config set no interval, so the stack gave it AWS_DEFAULT_POLL_INTERVAL_SECONDS. */
  intervalIsAwsDefault: boolean;
  /** Pages its pending window took when last walked (detection's estimate). */
  pendingPages: number;
  /** Look-ups its cycles make on average. */
  averageLookups: number;
  organizationsOnToken: number;
  /** What the token may send a minute. */
  usablePerMinute: number;
}

/**
 * The least interval an organization gets on AWS: what its config sets, whatever it is; at the default, a small
 * organization's shorter interval, never shorter than the round in which every organization on the token
 * makes a cycle like it within the token's budget, so that together they never ask for more than it
 * holds (the pace stretches any interval further when cycles cost more than that).
 */
export function awsIntervalSeconds(input: IntervalBySizeInput): number {
  if (!input.intervalIsAwsDefault) return input.pollIntervalSeconds;
  if (input.pendingPages > AWS_SMALL_ORGANIZATION_PAGES) return input.pollIntervalSeconds;
  const cycleRequests = input.pendingPages + Math.max(1, input.averageLookups);
  const roundSeconds = (Math.max(1, input.organizationsOnToken) * cycleRequests * 60) / input.usablePerMinute;
  return Math.min(
    input.pollIntervalSeconds,
    Math.max(AWS_SMALL_ORGANIZATION_INTERVAL_SECONDS, Math.ceil(roundSeconds)),
  );
}
