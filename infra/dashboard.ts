// The CloudWatch dashboard, one row per concern: for each organization, API requests against the token's
// budget, orders seen and events emitted (Logs Insights over the poller's cycle lines: as custom metrics
// they would cost $0.30 a month each per organization), poll cycles and successful ones (its PollSucceeded
// metric); for each Slack or webhook subscriber, delivery latency, outcomes (delivered, retried,
// dead-lettered, disabled) and its queues; e-mail through the topic's delivery counts; and the functions'
// errors, throttles and the publisher's lag.
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
import type { OrganizationConfig } from '../shared/config/configSchema.js';
import type { NotifierFunction } from './notifierFunction.js';
import { deliveryMetric, pollSucceededMetric } from './notifierMetrics.js';
import type { SubscriberQueue } from './subscriberQueues.js';

const WIDTH = 8;
const HEIGHT = 6;

export interface NotifierDashboardProps {
  /** One row each. */
  readonly organizations: readonly OrganizationConfig[];
  /** `api.requestsPerMinute`: the budget line on each organization's requests graph. */
  readonly requestsPerMinute: number;
  /** One row per Slack or webhook subscriber. */
  readonly queues: readonly SubscriberQueue[];
  /** The e-mail subscribers' ids, named on the topic's row. @default none */
  readonly emailSubscriberIds?: readonly string[];
  /** Its log group holds the cycle lines the organizations' rows query. */
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
          'Per organization: API requests per minute against the per-token budget, orders in the watched window and events emitted (from the poller log), poll cycles and successful ones. ' +
            'Per subscriber: delivery latency (event detected → delivered) and outcomes. Alarms: see the alarm topic.',
        ].join('\n\n'),
        width: 24,
        height: 2,
      }),
    );
    for (const organization of props.organizations) {
      this.#add(
        ...this.#organizationRow(organization, props.requestsPerMinute, props.poller.logGroup.logGroupName),
      );
    }
    for (const subscriberQueue of props.queues) {
      this.#add(...this.#subscriberRow(subscriberQueue));
    }
    this.#add(...this.#topicAndFunctionsRow(props));
  }

  #add(...widgets: IWidget[]): void {
    this.widgetCount += widgets.length;
    this.dashboard.addWidgets(...widgets);
  }

  #organizationRow(
    organization: OrganizationConfig,
    requestsPerMinute: number,
    pollerLogGroup: string,
  ): IWidget[] {
    // The organization's cycle lines (functions/poller/pollOnTrigger.ts): a skipped cycle's line has no
    // figures, and a deferred one sent no request, so neither draws a false zero on the budget.
    const cycleLines = [
      'fields @timestamp',
      `filter organization = "${organization.id}" and ispresent(requests)`,
    ];
    return [
      new LogQueryWidget({
        title: `${organization.name}: API requests per minute (budget ${requestsPerMinute} per token)`,
        logGroupNames: [pollerLogGroup],
        queryLines: [
          ...cycleLines,
          'stats sum(requests) as requestsUsed, min(budgetRemaining) as budgetLeftAfterACycle by bin(1m)',
        ],
        view: LogQueryVisualizationType.LINE,
        width: WIDTH,
        height: HEIGHT,
      }),
      new LogQueryWidget({
        title: `${organization.name}: orders seen, events emitted`,
        logGroupNames: [pollerLogGroup],
        queryLines: [
          ...cycleLines,
          'filter outcome = "polled"',
          'stats max(ordersSeen) as ordersSeenInTheWindow, sum(events) as eventsEmitted by bin(5m)',
        ],
        view: LogQueryVisualizationType.LINE,
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: `${organization.name}: poll cycles`,
        left: [
          pollSucceededMetric(organization.id, { statistic: 'SampleCount', label: 'cycles' }),
          pollSucceededMetric(organization.id, { statistic: 'Sum', label: 'succeeded' }),
        ],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
    ];
  }

  #subscriberRow({ subscriber, queue, deadLetterQueue }: SubscriberQueue): IWidget[] {
    const metric = (name: Parameters<typeof deliveryMetric>[2], statistic: string, label: string): Metric =>
      deliveryMetric(subscriber.type, subscriber.id, name, { statistic, label });
    const fiveMinutes = Duration.minutes(5);
    return [
      new GraphWidget({
        title: `${subscriber.id} (${subscriber.type}): delivery latency`,
        left: [
          metric('DeliveryLatencyMs', 'p50', 'p50 ms'),
          metric('DeliveryLatencyMs', 'p99', 'p99 ms'),
          metric('DeliveryLatencyMs', 'Maximum', 'max ms'),
        ],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: `${subscriber.id} (${subscriber.type}): outcomes`,
        left: [
          metric('Delivered', 'Sum', 'delivered'),
          metric('DeliveryRetried', 'Sum', 'retried'),
          metric('DeadLettered', 'Sum', 'dead-lettered'),
          metric('SubscriberDisabled', 'Sum', 'subscriber disabled'),
        ],
        leftYAxis: { min: 0 },
        width: WIDTH,
        height: HEIGHT,
      }),
      new GraphWidget({
        title: `${subscriber.id} (${subscriber.type}): queues`,
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
