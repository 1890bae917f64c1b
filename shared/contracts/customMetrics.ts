// The names of the functions' custom metrics: the functions publish them with Powertools Metrics (EMF),
// and the stack's alarms and dashboard find them by name (infra/notifierMetrics.ts), so the two cannot
// drift apart.

/** The namespace every custom metric of the functions is published under. */
export const METRICS_NAMESPACE = 'MealOrderNotifier';

/**
 * Each function's service name: the stack sets it as POWERTOOLS_SERVICE_NAME (Powertools' Logger takes it
 * from there), the handlers give it to Powertools' Metrics (the `service` dimension), and the alarms and
 * the dashboard find the metrics by it.
 */
export const SERVICE_NAMES = {
  poller: 'poller',
  publisher: 'publisher',
  webhook: 'webhook-delivery',
  slack: 'slack-delivery',
  digest: 'digest',
} as const;

/** Published by the poller under the `service` dimension alone: listing problems, all organizations together. */
export const LISTING_PROBLEMS_METRIC = 'ListingProblems';
/** Published by the poller under `service` and `Organization`: each organization's one metric and alarm. */
export const POLL_SUCCEEDED_METRIC = 'PollSucceeded';
/**
 * Published by the poller under `service` and `Organization` on every trigger, due or not: 1 when the
 * organization is overdue by the one rule (shared/detect/overdue.ts), else 0. Its "not polled" alarm reads it.
 */
export const POLL_OVERDUE_METRIC = 'PollOverdue';
/**
 * Published by the poller under the `service` dimension alone, like ListingProblems, by every trigger of
 * an organization whose token the API rejects ("token rejected: put a new token",
 * shared/contracts/tokenRejected.ts): 1, and nothing otherwise. One metric and one alarm for the
 * deployment, not one per organization: a stack holds 150 organizations within CloudFormation's 500
 * resources only so. The poller's log lines and `status --stack` name the organization.
 */
export const TOKEN_REJECTED_METRIC = 'TokenRejected';
/** The alarm on PollOverdue: this many one-minute periods in a row, each overdue or without data. */
export { OVERDUE_ALARM_PERIOD_MS, OVERDUE_ALARM_PERIODS } from '../detect/overdue.js';

/** The delivery functions' counts, per subscriber (`Subscriber` dimension). */
export const DELIVERY_COUNTERS = [
  'Delivered',
  'DeliveryRetried',
  'DeadLettered',
  'SubscriberDisabled',
] as const;
export type DeliveryCounter = (typeof DELIVERY_COUNTERS)[number];

/** Every metric the delivery functions publish per subscriber: the counts and each delivery's latency. */
export type DeliveryMetricName = DeliveryCounter | 'DeliveryLatencyMs';
