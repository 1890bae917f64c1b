// The poll report as the poller logs it, the per-organization EMF metrics the dashboard and the "not polled
// successfully" alarm read, and the deployment's ListingProblems metric its alarm reads.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { PollReport } from '../../shared/poll/pollOrganization.js';

export interface PollSummary {
  organization: string;
  outcome: PollReport['outcome'];
  /** Why a cycle was skipped or deferred. */
  reason?: string;
  ok: boolean;
  requests: number;
  requestsFor: PollReport['requestsFor'];
  budgetRemaining: number;
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
}

/** Published under the `service` dimension alone; infra/notifierMetrics.ts names it for the alarm. */
export const LISTING_PROBLEMS_METRIC = 'ListingProblems';

export function summarizePoll(report: PollReport): PollSummary {
  return {
    organization: report.organization.id,
    outcome: report.outcome,
    ...(report.reason === undefined ? {} : { reason: report.reason }),
    ok: report.ok,
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
  };
}

/**
 * PollSucceeded only for a cycle that polled: 1 when every walk succeeded, else 0. A cycle skipped (another
 * run held the lease) or deferred (no budget for pending) is neither, so it publishes none, and the
 * "not polled successfully" alarm, which counts a minute without data as a failure, still sees the gap.
 * ListingProblems, for a cycle that polled too, is one metric for the whole deployment, without the
 * organization (a custom metric costs $0.30 a month): the warning in the log names the organization.
 */
export function publishPollMetrics(metrics: Metrics, report: PollReport): void {
  // A skipped cycle did nothing and measured nothing: its report's figures are all zeros.
  if (report.outcome === 'skipped') return;
  metrics.addDimension('Organization', report.organization.id);
  metrics.addMetric('RequestsUsed', MetricUnit.Count, report.requests);
  metrics.addMetric('BudgetRemaining', MetricUnit.Count, report.budgetRemaining);
  if (report.outcome === 'polled') {
    metrics.singleMetric().addMetric(LISTING_PROBLEMS_METRIC, MetricUnit.Count, report.problems.length);
    metrics.addMetric('PollSucceeded', MetricUnit.Count, report.ok ? 1 : 0);
    metrics.addMetric('OrdersSeen', MetricUnit.Count, report.ordersSeen);
    metrics.addMetric('EventsEmitted', MetricUnit.Count, report.events.length);
  }
  metrics.publishStoredMetrics();
}
