// The functions' custom metrics as CloudWatch files them, for the alarms and the dashboard. Powertools
// Metrics (EMF) publishes each under the namespace with two dimensions together: `service`, the service
// name the handler gives Powertools, and the metric's own (`Organization` or `Subscriber`). A metric is
// found only by its exact dimension set, so both are named here.
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { DeliveryCounter } from '../functions/shared/deliveryMetrics.js';

export const METRICS_NAMESPACE = 'MealOrderNotifier';

/** The service names the handlers give Powertools: the `service` dimension and POWERTOOLS_SERVICE_NAME. */
export const SERVICE_NAMES = {
  poller: 'poller',
  publisher: 'publisher',
  webhook: 'webhook-delivery',
  slack: 'slack-delivery',
} as const;

/** What functions/poller/pollSummary.ts publishes per poll cycle, under the `Organization` dimension. */
export type PollMetricName =
  | 'PollSucceeded'
  | 'RequestsUsed'
  | 'BudgetRemaining'
  | 'OrdersSeen'
  | 'EventsEmitted';

/** What functions/shared/deliveryMetrics.ts publishes per batch, under the `Subscriber` dimension. */
export type DeliveryMetricName = DeliveryCounter | 'DeliveryLatencyMs';

export function pollMetric(
  organizationId: string,
  metricName: PollMetricName,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAMES.poller, Organization: organizationId },
    period: Duration.minutes(1),
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
