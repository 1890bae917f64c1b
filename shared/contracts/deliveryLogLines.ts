// The delivery functions' outcome log lines (shared/delivery/sqs/sqsDelivery.ts writes them through
// Powertools' Logger) and the fields the dashboard's Logs Insights widgets read from them
// (infra/dashboard.ts): one list for both, so a renamed line cannot leave a widget counting nothing.

/** The `message` of each outcome line; every one but an intake message's dead letter names its subscriber. */
export const DELIVERY_OUTCOME_MESSAGES = {
  delivered: 'delivered',
  deferred: 'delivery deferred',
  deadLettered: 'dead-lettered',
  paused: 'subscriber paused',
  disabled: 'subscriber disabled',
} as const;
export type DeliveryOutcomeMessage =
  (typeof DELIVERY_OUTCOME_MESSAGES)[keyof typeof DELIVERY_OUTCOME_MESSAGES];

/**
 * The outcome lines' fields the widgets group and measure by: the subscriber's id, the attempts made
 * (SQS's receive count, this one included) and, on a `delivered` line, the event's time to delivery.
 */
export const DELIVERY_LOG_FIELDS = {
  subscriber: 'subscriber',
  attempts: 'attempts',
  latencyMs: 'latencyMs',
} as const;
