// The CloudWatch dashboard, one row per concern: every organization's health in one row of three widgets,
// whatever their number: the count of overdue organizations (the watchdog's OrganizationsOverdue), a table
// of the overdue ones and why (the watchdog's lines), and a table of every organization's cycles, API
// requests against the token's budget, orders seen and events (one Logs Insights query over the poller's
// cycle lines, grouped by organization: as custom metrics they would cost $0.30 a month each per
// organization, and a query per organization would scan the log group once each); for each Slack or
// webhook channel, one row whatever its number of subscribers: its latency and outcomes (Logs Insights
// queries over its delivery function's outcome lines, five-minute bins) and its queues, then one Logs
// Insights table of every subscriber (over the delivery functions' outcome lines, grouped by subscriber);
// e-mail through the topic's delivery counts; and the functions' errors, throttles and the publisher's lag.
// The delivery figures are no custom metrics: as such they cost $0.30 a month each per channel whatever
// the traffic, read by the dashboard alone, while a query costs only when the dashboard is viewed, $0.005
// per GB its range scans. Every query scans one or both delivery log groups over the dashboard's range
// (six hours unless the viewer picks another): at most five queries, whatever the subscribers or
// organizations.
import { Duration } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  type IWidget,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  DELIVERY_LOG_FIELDS as FIELD,
  DELIVERY_OUTCOME_MESSAGES as OUTCOME,
} from '../shared/contracts/deliveryLogLines.js';
import type { ChannelQueues } from './deliveryQueues.js';
import type { QueueSubscriberType } from './notifierConfig.js';
import type { NotifierFunction } from './notifierFunction.js';
import { organizationsOverdueMetric } from './notifierMetrics.js';

const WIDTH = 8;

/** The delivery functions' outcome lines (sqsDelivery.ts), as a Logs Insights filter. */
const OUTCOME_FILTER = `filter message in ${JSON.stringify(Object.values(OUTCOME))}`;
/**
 * Each outcome's count, as Logs Insights `stats` sums it over the outcome lines: no outcome's message
 * contains another's, so a line counts once.
 */
const OUTCOME_COUNTS = (
  [
    ['delivered', OUTCOME.delivered],
    ['retried', OUTCOME.deferred],
    ['deadLettered', OUTCOME.deadLettered],
    ['paused', OUTCOME.paused],
    ['disabled', OUTCOME.disabled],
  ] as const
)
  .map(([name, message]) => `sum(strcontains(message, "${message}")) as ${name}`)
  .join(', ');
const HEIGHT = 6;
/** E-mail subscribers the event topic's widget names; the rest are counted. */
const EMAIL_IDS_IN_TITLE = 3;

export interface NotifierDashboardProps {
  /** `api.requestsPerMinute`: named on the organizations' table, beside each one's requests. */
  readonly requestsPerMinute: number;
  /** Its count of overdue organizations, and its lines naming them. */
  readonly watchdog: NotifierFunction;
  /** One row per Slack or webhook channel. */
  readonly channels: readonly ChannelQueues[];
  /** The Slack and webhook delivery functions by channel: their outcome lines make the channels' and subscribers' widgets. */
  readonly deliveryFunctions: ReadonlyMap<QueueSubscriberType, NotifierFunction>;
  /** The e-mail subscribers' ids, named on the topic's row. @default none */
  readonly emailSubscriberIds?: readonly string[];
  /** Its log group holds the cycle lines the organizations' table queries. */
  readonly poller: NotifierFunction;
  /** The event topic: its delivery counts are where e-mail shows. */
  readonly topic: ITopic;
  /** Their errors and throttles share one graph. */
  readonly functions: readonly NotifierFunction[];
  /** Its lag behind the stream is graphed. */
  readonly publisher: NotifierFunction;
  /** Graphed beside the publisher's lag. */
  readonly publisherFailureQueue: IQueue;
}

export class NotifierDashboard extends Construct {
  readonly dashboard: Dashboard;
  /** Counted for the stack's limits check: CloudWatch takes 500 widgets on a dashboard. */
  widgetCount = 0;

  constructor(scope: Construct, id: string, props: NotifierDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.#add(
      new TextWidget({
        markdown: [
          '# meal-order-notifier',
          'Organizations: how many are overdue (the watchdog\'s count, which the one "organizations not polled" alarm watches), which and why, and each one\'s cycles, API requests, orders in the watched window and events (from the poller log). ' +
            'Per subscriber: delivery latency (event detected → delivered) and outcomes. Alarms: see the alarm topic.',
        ].join('\n\n'),
        width: 24,
        height: 2,
      }),
    );
    this.#add(...this.#organizationsRow(props));
    for (const channel of props.channels) {
      const deliveryFunction = props.deliveryFunctions.get(channel.type);
      if (deliveryFunction) this.#add(...this.#channelRow(channel, deliveryFunction));
    }
    if (props.deliveryFunctions.size > 0)
      this.#add(this.#subscribersTable([...props.deliveryFunctions.values()]));
    this.#add(...this.#topicAndFunctionsRow(props));
  }

  #add(...widgets: IWidget[]): void {
    this.widgetCount += widgets.length;
    this.dashboard.addWidgets(...widgets);
  }

  #organizationsRow(props: NotifierDashboardProps): IWidget[] {
    return [
      new GraphWidget({
        title: 'Organizations overdue',
        left: [organizationsOverdueMetric({ statistic: 'Maximum', label: 'overdue' })],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      // The watchdog logs a line per overdue organization a minute, none for a healthy one: a small scan.
      new LogQueryWidget({
        title: 'Organizations overdue, and why (last 15 minutes of the range)',
        logGroupNames: [props.watchdog.logGroup.logGroupName],
        queryLines: [
          'filter message = "organization overdue"',
          'stats latest(reason) as why, max(@timestamp) as lastSeen by organization, name',
          'sort lastSeen desc',
          'limit 1000',
        ],
        view: LogQueryVisualizationType.TABLE,
        width: WIDTH,
        height: HEIGHT,
      }),
      // Every organization's cycles in one query over the poller's cycle lines (pollOnTrigger.ts): a skipped
      // cycle's line has no figures, and a deferred one sent no request.
      new LogQueryWidget({
        title: `Organizations: cycles, requests (budget ${props.requestsPerMinute} a minute per token), orders, events`,
        logGroupNames: [props.poller.logGroup.logGroupName],
        queryLines: [
          'filter ispresent(requests)',
          'stats count(*) as cycles, sum(strcontains(message, "failed")) as failed, sum(requests) as requests, min(budgetRemaining) as leastBudgetLeft, max(ordersSeen) as ordersSeen, sum(events) as events, max(@timestamp) as lastCycle by organization',
          'sort failed desc',
          'limit 1000',
        ],
        view: LogQueryVisualizationType.TABLE,
        width: WIDTH,
        height: HEIGHT,
      }),
    ];
  }

  /**
   * Every Slack and webhook subscriber in one table, from the delivery functions' outcome lines (each names
   * its subscriber): one query over their log groups, whatever the number of subscribers.
   */
  #subscribersTable(deliveryFunctions: readonly NotifierFunction[]): IWidget {
    return new LogQueryWidget({
      title: 'Slack and webhook subscribers: delivered, retried, dead-lettered, paused, latency',
      logGroupNames: deliveryFunctions.map((deliveryFunction) => deliveryFunction.logGroup.logGroupName),
      queryLines: [
        `${OUTCOME_FILTER} and ispresent(${FIELD.subscriber})`,
        `stats ${OUTCOME_COUNTS}, max(${FIELD.attempts}) as mostAttempts, pct(${FIELD.latencyMs}, 99) as p99LatencyMs, max(@timestamp) as last by ${FIELD.subscriber}`,
        'sort deadLettered desc, retried desc',
        'limit 1000',
      ],
      view: LogQueryVisualizationType.TABLE,
      width: 24,
      height: HEIGHT,
    });
  }

  #channelRow(
    { type, queue, deadLetterQueue }: ChannelQueues,
    deliveryFunction: NotifierFunction,
  ): IWidget[] {
    const fiveMinutes = Duration.minutes(5);
    // The channel's figures from its function's outcome lines, in five-minute bins: custom metrics read by
    // this row alone would cost $1.80 a month a channel; per subscriber, see the table below the rows.
    const logGroupNames = [deliveryFunction.logGroup.logGroupName];
    return [
      new LogQueryWidget({
        title: `${type}: delivery latency (ms), every subscriber`,
        logGroupNames,
        queryLines: [
          `filter message = "${OUTCOME.delivered}" and ispresent(${FIELD.latencyMs})`,
          `stats pct(${FIELD.latencyMs}, 50) as p50, pct(${FIELD.latencyMs}, 99) as p99 by bin(5m)`,
        ],
        view: LogQueryVisualizationType.LINE,
        width: WIDTH,
        height: HEIGHT,
      }),
      new LogQueryWidget({
        title: `${type}: delivered, retried, dead-lettered, paused, disabled`,
        logGroupNames,
        queryLines: [OUTCOME_FILTER, `stats ${OUTCOME_COUNTS} by bin(5m)`],
        view: LogQueryVisualizationType.LINE,
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: `${type}: the channel's queues (every subscriber's messages)`,
        left: [
          queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, label: 'waiting' }),
          queue.metricApproximateNumberOfMessagesNotVisible({
            period: fiveMinutes,
            label: 'in flight or waiting to retry',
          }),
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period: fiveMinutes,
            label: 'dead letters',
          }),
        ],
        right: [
          queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, label: 'oldest message (s)' }),
        ],
        leftYAxis: { min: 0 },
        rightYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
    ];
  }

  #topicAndFunctionsRow(props: NotifierDashboardProps): IWidget[] {
    const fiveMinutes = Duration.minutes(5);
    // The topic's deliveries are the e-mails: the title says whose, the first few by name, since a provider's
    // hundreds would make a title no one reads.
    const emailIds = props.emailSubscriberIds ?? [];
    const more = emailIds.length - EMAIL_IDS_IN_TITLE;
    const emailNote =
      emailIds.length > 0
        ? ` (e-mail: ${emailIds.slice(0, EMAIL_IDS_IN_TITLE).join(', ')}${more > 0 ? ` and ${more} more` : ''})`
        : '';
    return [
      new GraphWidget({
        title: `Event topic${emailNote}`,
        left: [
          props.topic.metricNumberOfMessagesPublished({ period: fiveMinutes, label: 'events published' }),
          props.topic.metricNumberOfNotificationsDelivered({
            period: fiveMinutes,
            label: 'notifications delivered',
          }),
          props.topic.metricNumberOfNotificationsFailed({
            period: fiveMinutes,
            label: 'notifications failed',
          }),
          props.topic.metricNumberOfNotificationsFilteredOut({ period: fiveMinutes, label: 'filtered out' }),
        ],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Function errors and throttles',
        left: props.functions.flatMap((notifierFunction) => [
          notifierFunction.function.metricErrors({
            period: fiveMinutes,
            label: `${notifierFunction.serviceName} errors`,
          }),
          notifierFunction.function.metricThrottles({
            period: fiveMinutes,
            label: `${notifierFunction.serviceName} throttles`,
          }),
        ]),
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: 'Publisher lag and failures',
        left: [
          new MathExpression({
            expression: 'age / 1000',
            usingMetrics: {
              age: props.publisher.function.metric('IteratorAge', {
                statistic: 'Maximum',
                period: fiveMinutes,
              }),
            },
            label: 'stream lag (s)',
            period: fiveMinutes,
          }),
        ],
        right: [
          props.publisherFailureQueue.metricApproximateNumberOfMessagesVisible({
            period: fiveMinutes,
            label: 'batches not published',
          }),
        ],
        leftYAxis: { min: 0 },
        rightYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
    ];
  }
}
