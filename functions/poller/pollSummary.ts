// The poll report as the poller logs it, and the per-organization EMF metrics the dashboard and the
// "not polled successfully" alarm read.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { PollReport } from '../../shared/poll/pollOrganization.js';

export interface PollSummary {
  organization: string;
  outcome: PollReport['outcome'];
  ok: boolean;
  requests: number;
  budgetRemaining: number;
  ordersSeen: number;
  events: number;
  conflicts: number;
  deferred: string[];
  failures: string[];
}

export function summarizePoll(report: PollReport): PollSummary {
  return {
    organization: report.organization.id,
    outcome: report.outcome,
    ok: report.ok,
    requests: report.requests,
    budgetRemaining: report.budgetRemaining,
    ordersSeen: report.ordersSeen,
    events: report.events.length,
    conflicts: report.conflicts,
    deferred: report.deferred,
    failures: report.failures,
  };
}

export function publishPollMetrics(metrics: Metrics, report: PollReport): void {
  metrics.addDimension('Organization', report.organization.id);
  metrics.addMetric('PollSucceeded', MetricUnit.Count, report.ok ? 1 : 0);
  metrics.addMetric('RequestsUsed', MetricUnit.Count, report.requests);
  metrics.addMetric('BudgetRemaining', MetricUnit.Count, report.budgetRemaining);
  metrics.addMetric('OrdersSeen', MetricUnit.Count, report.ordersSeen);
  metrics.addMetric('EventsEmitted', MetricUnit.Count, report.events.length);
  metrics.publishStoredMetrics();
}
