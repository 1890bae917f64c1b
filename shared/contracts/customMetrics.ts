// The names of the functions' custom metrics: the functions publish them with Powertools Metrics (EMF),
// and the stack's alarms and dashboard find them by name (infra/notifierMetrics.ts), so the two cannot
// drift apart.

/** Published by the poller under the `service` dimension alone: listing problems, all organizations together. */
export const LISTING_PROBLEMS_METRIC = 'ListingProblems';
/** Published by the poller under `service` and `Organization`: each organization's one metric and alarm. */
export const POLL_SUCCEEDED_METRIC = 'PollSucceeded';

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
