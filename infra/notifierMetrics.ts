// The functions' custom metrics as CloudWatch files them, for the alarms and the dashboard. Powertools
// Metrics (EMF) publishes each under the namespace with two dimensions together: `service`, the service
// name the handler gives Powertools, and the metric's own (`Organization` or `Subscriber`); ListingProblems,
// one for the whole deployment, has `service` alone. A metric is found only by its exact dimension set, so
// each is named here. Each name and dimension set is one custom metric, $0.30 a month: an organization has
// two (PollOverdue, PollSucceeded), and its other figures are fields of the poller's log lines; the
// deployment has ListingProblems and TokenRejected.
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type DeliveryMetricName,
  LISTING_PROBLEMS_METRIC,
  METRICS_NAMESPACE,
  POLL_OVERDUE_METRIC,
  POLL_SUCCEEDED_METRIC,
  SERVICE_NAMES,
  TOKEN_REJECTED_METRIC,
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
 * PollSucceeded, the one metric functions/poller/pollSummary.ts publishes per organization: 1 for each
 * successful cycle, 0 for each failed or deferred one; none for a skipped one (another run held the lease:
 * that run publishes its cycle's).
 */
export function pollSucceededMetric(organizationId: string, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: POLL_SUCCEEDED_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.poller, Organization: organizationId },
    period: Duration.minutes(1),
    ...options,
  });
}

/**
 * PollOverdue, published per organization by every trigger of the poller, due or not: 1 when the one
 * overdue rule (shared/detect/overdue.ts) finds it overdue, else 0. Its "not polled" alarm reads it.
 */
export function pollOverdueMetric(organizationId: string, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: POLL_OVERDUE_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.poller, Organization: organizationId },
    period: Duration.minutes(1),
    ...options,
  });
}

/**
 * TokenRejected, one for the deployment (the `service` dimension alone): 1 from every trigger of an
 * organization whose token the API rejects, nothing otherwise. Its "token rejected" alarm reads it.
 */
export function tokenRejectedMetric(options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: TOKEN_REJECTED_METRIC,
    dimensionsMap: { service: SERVICE_NAMES.poller },
    period: Duration.minutes(5),
    ...options,
  });
}

export function deliveryMetric(
  subscriberType: keyof Pick<typeof SERVICE_NAMES, 'webhook' | 'slack'>,
  subscriberId: string,
  metricName: DeliveryMetricName,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAMES[subscriberType], Subscriber: subscriberId },
    period: Duration.minutes(5),
    ...options,
  });
}
