// The functions' custom metrics as CloudWatch files them, for the alarms and the dashboard. Powertools
// Metrics (EMF) publishes each under the namespace with two dimensions together: `service`, the service
// name the handler gives Powertools, and the metric's own (`Subscriber`); ListingProblems and
// OrganizationsOverdue and OrganizationsTokenRejected, one each for the whole deployment, have `service` alone. A metric is found only by
// its exact dimension set, so each is named here. Each name and dimension set is one custom metric, $0.30 a
// month: an organization has none, its figures are fields of the poller's log lines and its health is in
// the state table, which the watchdog reads.
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type DeliveryMetricName,
  LISTING_PROBLEMS_METRIC,
  METRICS_NAMESPACE,
  ORGANIZATIONS_OVERDUE_METRIC,
  ORGANIZATIONS_TOKEN_REJECTED_METRIC,
  SERVICE_NAMES,
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
 * A delivery function's count or latency for its whole channel: the `service` dimension alone, since a
 * subscriber is an EMF property, not a dimension (shared/delivery/sqs/deliveryMetrics.ts).
 */
export function channelDeliveryMetric(
  channel: keyof Pick<typeof SERVICE_NAMES, 'webhook' | 'slack'>,
  metricName: DeliveryMetricName,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAMES[channel] },
    period: Duration.minutes(5),
    ...options,
  });
}
