// The poll report as the poller logs it, and the one custom metric it publishes: ListingProblems, one for
// the whole deployment. A cycle's figures (outcome, requests, budget left, orders seen, events) are fields
// of its log line, which the dashboard's one table queries: as metrics they would cost $0.30 a month each
// per organization. Whether an organization is overdue, the watchdog reads from the state table.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { LISTING_PROBLEMS_METRIC } from '../../shared/contracts/customMetrics.js';
import type { PollReport } from '../../shared/poll/pollReport.js';

interface SummaryBase {
  organization: string;
  /** Why a cycle was skipped, deferred or failed. */
  reason?: string;
  /** The cycle succeeded: it polled, and every walk it started was fetched. */
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

/** A cycle's metric: ListingProblems, for a cycle that polled. */
export function publishPollMetrics(metrics: Metrics, report: PollReport): void {
  if (report.outcome !== 'polled') return;
  metrics.singleMetric().addMetric(LISTING_PROBLEMS_METRIC, MetricUnit.Count, report.problems.length);
}
