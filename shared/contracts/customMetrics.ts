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
  watchdog: 'watchdog',
  publisher: 'publisher',
  webhook: 'webhook-delivery',
  slack: 'slack-delivery',
  digest: 'digest',
} as const;

/** Published by the poller under the `service` dimension alone: listing problems, all organizations together. */
export const LISTING_PROBLEMS_METRIC = 'ListingProblems';
/**
 * Published by the watchdog under the `service` dimension alone, once a minute: how many organizations are
 * overdue by the one rule (shared/detect/overdue.ts). Its one alarm covers every organization; the
 * watchdog's log, and `meal-notifier status --stack`, name them and say why.
 */
export const ORGANIZATIONS_OVERDUE_METRIC = 'OrganizationsOverdue';
/**
 * Published by the watchdog under the `service` dimension alone, once a minute: how many organizations have
 * their token rejected by the API ("token rejected: put a new token", shared/contracts/tokenRejected.ts),
 * read from the state table. One metric and one alarm for the deployment; the watchdog's log and
 * `status --stack` name the organizations.
 */
export const ORGANIZATIONS_TOKEN_REJECTED_METRIC = 'OrganizationsTokenRejected';
/** The alarm on OrganizationsOverdue: this many one-minute periods in a row, each overdue or without data. */
export { OVERDUE_ALARM_PERIOD_MS, OVERDUE_ALARM_PERIODS } from '../detect/overdue.js';

/**
 * Published by slack-delivery under the `service` dimension alone, and only by an invocation in which a
 * Slack app subscriber paused (its count there): the one delivery metric, since an alarm ("a Slack app
 * subscriber paused") reads it and an alarm needs a metric. CloudWatch bills a custom metric by the hours
 * it is reported in, so a month without a pause costs nothing, and one paused all month $0.30. Everything
 * else about deliveries (delivered, retried, dead-lettered, latency) the dashboard reads from the delivery
 * functions' log lines (deliveryLogLines.ts), and no alarm needs it.
 */
export const SUBSCRIBER_PAUSED_METRIC = 'SubscriberPaused';
