// The functions' custom metrics as CloudWatch files them, for the alarms. Powertools Metrics (EMF)
// publishes each under the namespace with the `service` dimension alone, the service name the handler
// gives Powertools: ListingProblems, OrganizationsOverdue and OrganizationsTokenRejected, one each for the
// whole deployment, and SubscriberPaused for the Slack channel. A metric is found only by its exact
// dimension set, so each is named here. Each name and dimension set is one custom metric, $0.30 a month,
// and each is here because an alarm reads it: an organization has none (its figures are fields of the
// poller's log lines, its health is in the state table, which the watchdog reads), and a delivery's
// outcome and latency are fields of the delivery functions' log lines, which the dashboard queries.
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  LISTING_PROBLEMS_METRIC,
  METRICS_NAMESPACE,
  ORGANIZATIONS_OVERDUE_METRIC,
  ORGANIZATIONS_TOKEN_REJECTED_METRIC,
  SERVICE_NAMES,
  SUBSCRIBER_PAUSED_METRIC,
} from '../shared/contracts/customMetrics.js';

/** The namespace and service names live in shared/contracts/customMetrics.ts, with the handlers'. */
export { METRICS_NAMESPACE, SERVICE_NAMES };

/** ListingProblems: what the poller's cycles found wrong with listings, all organizations together. */
export function listingProblemsMetric(options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: LISTING_PROBLEMS_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.poller },
    period: Duration.minutes(5),
    ...options,
  });
}

/**
 * OrganizationsOverdue, published once a minute by the watchdog: how many organizations the one overdue
 * rule (shared/detect/overdue.ts) finds overdue. Its one alarm stands for every organization.
 */
export function organizationsOverdueMetric(options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: ORGANIZATIONS_OVERDUE_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.watchdog },
    period: Duration.minutes(1),
    ...options,
  });
}

/** OrganizationsTokenRejected: the watchdog's count of organizations whose token the API rejects. */
export function organizationsTokenRejectedMetric(options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: ORGANIZATIONS_TOKEN_REJECTED_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.watchdog },
    period: Duration.minutes(1),
    ...options,
  });
}

/**
 * SubscriberPaused, published by slack-delivery only when a Slack app subscriber paused
 * (shared/delivery/sqs/pausedCount.ts): the paused alarm's metric. The `service` dimension alone: a
 * subscriber is an EMF property, not a dimension.
 */
export function subscriberPausedMetric(options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: SUBSCRIBER_PAUSED_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.slack },
    period: Duration.minutes(5),
    ...options,
  });
}
