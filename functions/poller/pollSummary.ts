// The poll report as the poller logs it, and the custom metrics it publishes: per organization PollOverdue
// (every trigger, due or not: its "not polled" alarm) and PollSucceeded (every cycle), and ListingProblems
// and TokenRejected (every trigger of an organization whose token is rejected),
// one for the whole deployment. A cycle's other figures (requests, budget left, orders seen, events) are fields of its
// log line, which the dashboard queries: as metrics they would cost $0.30 a month each per organization.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  LISTING_PROBLEMS_METRIC,
  POLL_OVERDUE_METRIC,
  POLL_SUCCEEDED_METRIC,
  TOKEN_REJECTED_METRIC,
} from '../../shared/contracts/customMetrics.js';
import type { PollReport } from '../../shared/poll/pollReport.js';

interface SummaryBase {
  organization: string;
  /** Why a cycle was skipped, deferred or failed. */
  reason?: string;
  /** The cycle succeeded: it polled, and every walk it started was fetched. Its PollSucceeded. */
  ok: boolean;
  /** The API rejected the organization's token in this cycle (401 or 403): "token rejected: put a new token". */
  tokenRejected?: true;
}

/** Another run held the lease: this trigger measured nothing, so its line carries no figures. */
export interface SkippedSummary extends SummaryBase {
  outcome: 'skipped';
}

export interface CycleSummary extends SummaryBase {
  outcome: 'polled' | 'deferred';
  requests: number;
  requestsFor: PollReport['requestsFor'];
  /** Null when the budget's counter could not be read after the cycle (a line of its own says why). */
  budgetRemaining: number | null;
  ordersSeen: number;
  /** Orders that left pending this cycle. */
  vanished: number;
  events: number;
  conflicts: number;
  /** Problems met in listings fetched without error; the poller logs them in a warning of their own. */
  listingProblems: number;
  deferred: string[];
  failures: string[];
  /** When the next cycle is due, ISO 8601. */
  nextPollAt: string;
  /** How closely the cadence watched: hot, normal, cold, or fixed. */
  cadence?: PollReport['cadence'];
}

export type PollSummary = SkippedSummary | CycleSummary;

/** Only a cycle that polled, and whose every walk succeeded, is a success; a skip or a deferral is not. */
export function pollSucceeded(report: PollReport): boolean {
  return report.outcome === 'polled' && report.ok;
}

export function summarizePoll(report: PollReport): PollSummary {
  const base = {
    organization: report.organization.id,
    ...(report.reason === undefined ? {} : { reason: report.reason }),
    ok: pollSucceeded(report),
    ...(report.tokenRejected ? { tokenRejected: true as const } : {}),
  };
  if (report.outcome === 'skipped') return { ...base, outcome: 'skipped' };
  return {
    ...base,
    outcome: report.outcome,
    requests: report.requests,
    requestsFor: { ...report.requestsFor },
    budgetRemaining: report.budgetRemaining,
    ordersSeen: report.ordersSeen,
    vanished: report.vanished.length,
    events: report.events.length,
    conflicts: report.conflicts,
    listingProblems: report.problems.length,
    deferred: report.deferred,
    failures: report.failures,
    nextPollAt: new Date(report.nextPollAt).toISOString(),
    ...(report.cadence === undefined ? {} : { cadence: report.cadence }),
  };
}

/** What the organization's state says after a trigger, for the metrics every trigger publishes. */
export interface OrganizationVerdict {
  /** The one overdue rule's verdict: PollOverdue. */
  overdue: boolean;
  /** The token stands rejected: TokenRejected. */
  tokenRejected: boolean;
}

/**
 * A cycle's metrics: ListingProblems for a cycle that polled, then the organization's PollSucceeded,
 * PollOverdue and TokenRejected (after the cycle) in one blob. A cycle skipped for another run's lease (a
 * redelivered tick, a trigger during a long cycle) publishes no PollSucceeded, which is no failure: the run
 * holding the lease publishes its own. Its PollOverdue and TokenRejected are the state's all the same.
 */
export function publishPollMetrics(metrics: Metrics, report: PollReport, verdict: OrganizationVerdict): void {
  if (report.outcome === 'polled') {
    metrics.singleMetric().addMetric(LISTING_PROBLEMS_METRIC, MetricUnit.Count, report.problems.length);
  }
  publishOrganizationMetrics(metrics, report.organization.id, {
    ...(report.outcome === 'skipped' ? {} : { succeeded: pollSucceeded(report) }),
    ...verdict,
  });
}

/**
 * The organization's metrics of one trigger: PollOverdue always (its alarm reads it), PollSucceeded when a
 * cycle ran or could not start (0 then), and the deployment's TokenRejected while its token is rejected.
 */
export function publishOrganizationMetrics(
  metrics: Metrics,
  organizationId: string,
  { succeeded, overdue, tokenRejected }: OrganizationVerdict & { succeeded?: boolean },
): void {
  metrics.addDimension('Organization', organizationId);
  if (succeeded !== undefined) metrics.addMetric(POLL_SUCCEEDED_METRIC, MetricUnit.Count, succeeded ? 1 : 0);
  metrics.addMetric(POLL_OVERDUE_METRIC, MetricUnit.Count, overdue ? 1 : 0);
  metrics.publishStoredMetrics();
  // The deployment's, without the organization (customMetrics.ts); only while rejected, so a deployment
  // whose tokens are all accepted pays for no datapoint of it.
  if (tokenRejected) metrics.singleMetric().addMetric(TOKEN_REJECTED_METRIC, MetricUnit.Count, 1);
}
