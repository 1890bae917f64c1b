// The CloudWatch dashboard, one row per concern: every organization's health in one row of three widgets,
// whatever their number: the count of overdue organizations (the watchdog's OrganizationsOverdue), a table
// of the overdue ones and why (the watchdog's lines), and a table of every organization's cycles, API
// requests against the token's budget, orders seen and events (one Logs Insights query over the poller's
// cycle lines, grouped by organization: as custom metrics they would cost $0.30 a month each per
// organization, and a query per organization would scan the log group once each); for each Slack or
// webhook channel, one row whatever its number of subscribers: its latency and outcomes (metrics of the
// channel, no dimension per subscriber) and its queues, then one Logs Insights table of every subscriber
// (over the delivery functions' outcome lines, grouped by subscriber); e-mail through the topic's
// delivery counts; and the functions' errors, throttles and the publisher's lag.
import { Duration } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  type IWidget,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  type Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DeliveryMetricName } from '../shared/contracts/customMetrics.js';
import type { ChannelQueues } from './deliveryQueues.js';
import type { NotifierFunction } from './notifierFunction.js';
import { channelDeliveryMetric, organizationsOverdueMetric } from './notifierMetrics.js';

const WIDTH = 8;

/** The delivery functions' log lines of an outcome, each naming its subscriber (sqsDelivery.ts). */
const DELIVERY_OUTCOME_LINES = [
  'delivered',
  'delivery deferred',
  'dead-lettered',
  'subscriber paused',
  'subscriber disabled',
] as const;
const HEIGHT = 6;

export interface NotifierDashboardProps {
  /** `api.requestsPerMinute`: named on the organizations' table, beside each one's requests. */
  readonly requestsPerMinute: number;
  /** Its count of overdue organizations, and its lines naming them. */
  readonly watchdog: NotifierFunction;
  /** One row per Slack or webhook channel. */
  readonly channels: readonly ChannelQueues[];
  /** The Slack and webhook delivery functions: their log lines make the per-subscriber table. */
  readonly deliveryFunctions: readonly NotifierFunction[];
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
      this.#add(...this.#channelRow(channel));
    }
    if (props.deliveryFunctions.length > 0) this.#add(this.#subscribersTable(props.deliveryFunctions));
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
        `filter ispresent(subscriber) and message in ${JSON.stringify([...DELIVERY_OUTCOME_LINES])}`,
        'stats sum(strcontains(message, "delivered")) as delivered, sum(strcontains(message, "deferred")) as retried, sum(strcontains(message, "dead-lettered")) as deadLettered, sum(strcontains(message, "paused")) as paused, sum(strcontains(message, "disabled")) as disabled, pct(latencyMs, 99) as p99LatencyMs, max(@timestamp) as last by subscriber',
        'sort deadLettered desc, retried desc',
        'limit 1000',
      ],
      view: LogQueryVisualizationType.TABLE,
      width: 24,
      height: HEIGHT,
    });
  }

  #channelRow({ type, queue, deadLetterQueue }: ChannelQueues): IWidget[] {
    const fiveMinutes = Duration.minutes(5);
    // The channel's metrics (the `service` dimension alone: a subscriber is no dimension, deliveryMetrics.ts);
    // per subscriber, see the table below the channel rows.
    const ofChannel = (metricName: DeliveryMetricName, statistic: string, label: string): Metric =>
      channelDeliveryMetric(type, metricName, { statistic, label, period: fiveMinutes });
    return [
      new GraphWidget({
        title: `${type}: delivery latency (ms), every subscriber`,
        left: [ofChannel('DeliveryLatencyMs', 'p50', 'p50'), ofChannel('DeliveryLatencyMs', 'p99', 'p99')],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: `${type}: delivered, retried, dead-lettered, paused`,
        left: [
          ofChannel('Delivered', 'Sum', 'delivered'),
          ofChannel('DeliveryRetried', 'Sum', 'retried'),
          ofChannel('DeadLettered', 'Sum', 'dead-lettered'),
          ofChannel('SubscriberPaused', 'Sum', 'paused'),
        ],
        leftYAxis: { min: 0 },
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
    const emailNote =
      props.emailSubscriberIds && props.emailSubscriberIds.length > 0
        ? ` (e-mail: ${props.emailSubscriberIds.join(', ')})`
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
