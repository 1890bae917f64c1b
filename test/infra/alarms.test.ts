// The alarms and the dashboard, read as an operator would: every alarm notifies the alarm topic, on
// ALARM and on OK; one "organizations not polled" alarm for every organization, on the very metric the
// watchdog publishes (same namespace, name and dimension set, or CloudWatch would never find it):
// OrganizationsOverdue, the count of organizations overdue by the one rule, whose missing minutes count as
// overdue; every DLQ, the publisher's failure queue included, alarms on its
// first message; every function on errors and throttles.
import { readFileSync } from 'node:fs';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishPollMetrics } from '../../functions/poller/pollSummary.js';
import { LISTING_PROBLEM_PERIODS } from '../../infra/alarms.js';
import { METRICS_NAMESPACE, SERVICE_NAMES } from '../../infra/notifierMetrics.js';
import { DeliveryTally } from '../../shared/delivery/sqs/deliveryMetrics.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { captureOutput } from '../support/captureOutput.js';
import {
  type CfnResource,
  exampleConfig,
  functionLogicalId,
  logicalIdAt,
  notifierApp,
  property,
  resourcesOfType,
} from './support/notifierApp.js';

const NORTH = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
const EAST = '0d7c9a2e-1f3b-4c5d-8e6f-7a8b9c0d1e2f';

const config = exampleConfig();
const [north] = config.organizations;
config.organizations.push({
  ...north,
  id: EAST,
  name: 'East School',
  token: { env: 'EAST_TOKEN' },
  pollIntervalSeconds: 300,
});
const { stack, template } = notifierApp(config, { props: { alarmEmail: 'oncall@example.org' } });
const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties ?? {});
const [alarmTopicId] =
  resourcesOfType(template, 'AWS::SNS::Topic').find(([id]) => id.startsWith('Alarms')) ?? [];

afterEach(() => {
  vi.restoreAllMocks();
});

function alarmOn(metricName: string, dimension: { Name: string; Value: unknown }) {
  const found = alarms.filter(
    (alarm) =>
      alarm.MetricName === metricName &&
      (alarm.Dimensions as { Name: string; Value: unknown }[]).some(
        (candidate) => JSON.stringify(candidate) === JSON.stringify(dimension),
      ),
  );
  expect(found, `${metricName} ${JSON.stringify(dimension)}`).toHaveLength(1);
  return found[0];
}

describe('alarms', () => {
  it('has one "organizations not polled" alarm for every organization: two minutes in a row with one overdue, a minute without data counting as overdue', () => {
    const notPolled = alarms.filter((alarm) => alarm.MetricName === 'OrganizationsOverdue');
    expect(notPolled).toHaveLength(1);
    expect(notPolled[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: 'watchdog' }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
    });
    expect(alarms.some((alarm) => JSON.stringify(alarm.Dimensions ?? []).includes('Organization'))).toBe(
      false,
    );
  });

  it('says where to look first, a token not put included, with the command that sets it', () => {
    const description = String(
      alarmOn('OrganizationsOverdue', { Name: 'service', Value: 'watchdog' })?.AlarmDescription,
    );
    expect(description).toContain('meal-notifier status --stack MealOrderNotifier');
    expect(description).toContain('"organization overdue"');
    expect(description).toContain('a token not put');
    expect(description.length).toBeLessThanOrEqual(1024);
  });

  it('alarms on a rejected token, on the count of such organizations the watchdog publishes once a minute, and says to put a new token', () => {
    const alarm = alarmOn('OrganizationsTokenRejected', { Name: 'service', Value: 'watchdog' });
    expect(alarm).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: 'watchdog' }],
      AlarmName: "MealOrderNotifier/an organization's token rejected",
      Statistic: 'Maximum',
      // The watchdog's every minute: the first minute without one brings it back to OK.
      Period: 60,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      TreatMissingData: 'notBreaching',
    });
    const description = String(alarm?.AlarmDescription);
    expect(description).toMatch(/^token rejected: put a new token\. /);
    expect(description).toMatch(/meal-notifier put-secrets --config … --stack \S+ --file/);
    expect(description).toMatch(/meal-notifier status --stack \S+ names the organization/);
    expect(description).toContain('every 5 minutes');
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(alarm?.AlarmActions).toEqual(alarm?.OKActions);
  });

  it('keeps the not-polled alarms quiet while polling is off (-c polling=off, until the tokens are put), and only those', () => {
    const paused = notifierApp(config, { props: { pollingEnabled: false } }).template;
    const pausedAlarms = resourcesOfType(paused, 'AWS::CloudWatch::Alarm').map(
      ([, alarm]) => alarm.Properties ?? {},
    );
    for (const alarm of pausedAlarms) {
      expect(alarm.ActionsEnabled, String(alarm.AlarmName)).toBe(
        !['OrganizationsOverdue', 'OrganizationsTokenRejected'].includes(String(alarm.MetricName)),
      );
    }
    expect(pausedAlarms.filter((alarm) => alarm.MetricName === 'OrganizationsOverdue')).toHaveLength(1);
    for (const alarm of alarms) expect(alarm.ActionsEnabled, String(alarm.AlarmName)).toBe(true);
  });

  it('fires when listings keep coming back broken: problems in 3 of 6 five-minute periods, for the whole deployment', () => {
    const alarm = alarmOn('ListingProblems', { Name: 'service', Value: 'poller' });
    expect(alarm).toMatchObject({
      Namespace: 'MealOrderNotifier',
      // One metric for all organizations: $0.30 a month, not $0.30 per organization.
      Dimensions: [{ Name: 'service', Value: 'poller' }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 6,
      DatapointsToAlarm: 3,
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'notBreaching',
      AlarmName: 'MealOrderNotifier/listings broken again and again',
    });
    expect(LISTING_PROBLEM_PERIODS).toEqual({ withProblems: 3, of: 6 });
    expect(alarm?.AlarmDescription).toContain('listing problems');
  });

  it('watches the ListingProblems metric the poller publishes: same namespace, name and dimension set', () => {
    const output = captureOutput();
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.poller });
    const problem = { kind: 'skipped_record', listing: 'pending', page: 1, detail: 'total: invalid' };
    const report = {
      organization: { id: NORTH },
      outcome: 'polled',
      ok: true,
      requests: 4,
      budgetRemaining: 40,
      ordersSeen: 60,
      events: [],
      problems: [problem],
    };
    publishPollMetrics(metrics, report as unknown as PollReport);
    const blob = output.emf().find((candidate) => 'ListingProblems' in candidate) as
      | { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] } }
      | undefined;
    const published = blob?._aws.CloudWatchMetrics[0];
    expect(published?.Namespace).toBe(METRICS_NAMESPACE);
    expect(blob).toMatchObject({ service: 'poller', ListingProblems: 1 });
    const alarm = alarmOn('ListingProblems', { Name: 'service', Value: 'poller' });
    expect(property<{ Name: string }[]>(alarm, 'Dimensions').map(({ Name }) => Name)).toEqual(
      published?.Dimensions[0],
    );
  });

  it('uses the service names the handlers give Powertools', () => {
    const source = (path: string) =>
      readFileSync(new URL(`../../functions/${path}`, import.meta.url), 'utf8');
    // The names come from shared/contracts/customMetrics.ts, which infra/notifierMetrics.ts re-exports.
    expect(source('poller/handler.ts')).toContain(
      'new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.poller })',
    );
    expect(source('watchdog/handler.ts')).toContain(
      'new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.watchdog })',
    );
    // The publisher publishes no custom metric: its counts are fields of its log line.
    expect(source('publisher/handler.ts')).not.toContain('new Metrics(');
    expect(source('shared/sqsDeliveryHandler.ts')).toContain(
      'new Metrics({ namespace: METRICS_NAMESPACE, serviceName: functionName })',
    );
    // Each Logger takes its service name from POWERTOOLS_SERVICE_NAME, which the stack sets.
    for (const handler of ['poller/handler.ts', 'publisher/handler.ts', 'digest/handler.ts']) {
      expect(source(handler)).toContain('new Logger()');
    }
    expect(source('shared/sqsDeliveryHandler.ts')).toContain('new Logger()');
    expect(source('webhook-delivery/handler.ts')).toContain(
      `createSqsDeliveryHandler('${SERVICE_NAMES.webhook}'`,
    );
    expect(source('slack-delivery/handler.ts')).toContain(
      `createSqsDeliveryHandler('${SERVICE_NAMES.slack}'`,
    );
    const output = captureOutput();
    const tally = new DeliveryTally();
    tally.count('automation', 'Delivered');
    tally.publish(new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.webhook }));
    expect(output.emf()[0]).toMatchObject({ service: 'webhook-delivery', subscriber: 'automation' });
  });

  it('alarms on any error of every function, poller errors included', () => {
    for (const service of ['poller', 'watchdog', 'publisher', 'webhook-delivery', 'slack-delivery']) {
      const functionId = functionLogicalId(template, service);
      for (const metricName of ['Errors']) {
        expect(
          alarmOn(metricName, { Name: 'FunctionName', Value: { Ref: functionId } }),
          `${service} ${metricName}`,
        ).toMatchObject({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Period: 300,
          EvaluationPeriods: 1,
          ComparisonOperator: 'GreaterThanThreshold',
          Threshold: 0,
          TreatMissingData: 'notBreaching',
        });
      }
    }
    expect(
      alarmOn('Errors', { Name: 'FunctionName', Value: { Ref: functionLogicalId(template, 'poller') } })
        ?.AlarmName,
    ).toBe('MealOrderNotifier/poller errors');
  });

  it('alarms once on any throttle in the account, not once per function: none reserves concurrency, so only the account running out throttles them', () => {
    const throttles = alarms.filter((alarm) => alarm.MetricName === 'Throttles');
    expect(throttles).toHaveLength(1);
    expect(throttles[0]).toMatchObject({
      AlarmName: 'MealOrderNotifier/functions throttled in the account',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(throttles[0]?.Dimensions).toBeUndefined();
    for (const [, fn] of resourcesOfType(template, 'AWS::Lambda::Function')) {
      expect(fn.Properties?.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it("alarms on the first message of every dead-letter queue, the publisher's failure queue included", () => {
    const deadLetterQueues = [
      // One per channel type, shared by its subscribers (each letter names its subscriber).
      logicalIdAt(stack, 'Deliveries', 'Slack', 'DeadLetterQueue'),
      logicalIdAt(stack, 'Deliveries', 'Webhook', 'DeadLetterQueue'),
      logicalIdAt(stack, 'Publisher', 'FailureQueue'),
    ];
    for (const queueId of deadLetterQueues) {
      expect(
        alarmOn('ApproximateNumberOfMessagesVisible', {
          Name: 'QueueName',
          Value: { 'Fn::GetAtt': [queueId, 'QueueName'] },
        }),
      ).toMatchObject({
        Namespace: 'AWS/SQS',
        Statistic: 'Maximum',
        Period: 300,
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('alarms on a paused Slack app subscriber, once for the channel, saying both fixes, only when the config has one', () => {
    expect(alarms.filter((alarm) => alarm.MetricName === 'SubscriberPaused')).toEqual([]);
    const withBoard = exampleConfig();
    withBoard.subscribers.push({
      id: 'kitchen-board',
      type: 'slack',
      botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' },
      channel: 'C0123ABCD',
    } as (typeof withBoard.subscribers)[number]);
    const boardAlarms = resourcesOfType(notifierApp(withBoard).template, 'AWS::CloudWatch::Alarm')
      .map(([, alarm]) => alarm.Properties ?? {})
      .filter((alarm) => alarm.MetricName === 'SubscriberPaused');
    expect(boardAlarms).toHaveLength(1);
    expect(boardAlarms[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAMES.slack }],
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    const description = String(boardAlarms[0]?.AlarmDescription);
    expect(description).toContain('put a new bot token');
    expect(description).toContain('invite the app to the channel');
    expect(description.length).toBeLessThanOrEqual(1024);
  });

  it('alarms when the publisher falls five minutes behind the stream', () => {
    expect(
      alarmOn('IteratorAge', {
        Name: 'FunctionName',
        Value: { Ref: functionLogicalId(template, 'publisher') },
      }),
    ).toMatchObject({ Statistic: 'Maximum', Threshold: 300_000, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('notifies the alarm topic of every alarm and of its recovery, and subscribes the alarm e-mail to it', () => {
    // One for every organization, one for rejected tokens, listing problems, the errors of 5 functions (the
    // watchdog's included), throttles in the account, 3 dead-letter queues, the publisher's lag, the SNS
    // subscriptions' dead letters.
    expect(alarms).toHaveLength(1 + 1 + 1 + 5 + 1 + 3 + 1 + 1);
    for (const alarm of alarms) {
      expect(alarm, String(alarm.AlarmName)).toMatchObject({
        AlarmActions: [{ Ref: alarmTopicId }],
        OKActions: [{ Ref: alarmTopicId }],
        AlarmDescription: expect.any(String),
      });
    }
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.org',
      TopicArn: { Ref: alarmTopicId },
    });
  });
});

describe('dashboard', () => {
  const [, dashboard] = resourcesOfType(template, 'AWS::CloudWatch::Dashboard')[0] ?? [];
  const body = JSON.stringify((dashboard as CfnResource).Properties?.DashboardBody);
  const widgets = dashboardWidgets(dashboard as CfnResource);

  it('shows every organization in one row whatever their number: the overdue count, the overdue ones and why, and one table of every cycle by organization', () => {
    const pollerLogs = logicalIdAt(stack, 'Poller', 'Logs');
    const watchdogLogs = logicalIdAt(stack, 'Watchdog', 'Logs');
    const queries = widgets
      .filter(({ type }) => type === 'log')
      .map(({ properties }) => String(properties.query));
    // One query per log group, grouped by organization: never one per organization (the third is the
    // subscribers' table).
    expect(queries).toHaveLength(3);
    const [overdue, cycles] = queries;
    expect(overdue).toContain(`SOURCE '<Ref:${watchdogLogs}>'`);
    expect(overdue).toContain('filter message = "organization overdue"');
    expect(overdue).toContain('by organization');
    expect(cycles).toContain(`SOURCE '<Ref:${pollerLogs}>'`);
    expect(cycles).toMatch(
      /sum\(requests\).*min\(budgetRemaining\).*max\(ordersSeen\).*sum\(events\).*by organization/,
    );
    for (const id of [NORTH, EAST]) expect(body).not.toContain(id);
    expect(body).toContain('OrganizationsOverdue');
  });

  it('holds no custom metric per organization, in the alarms or the dashboard', () => {
    for (const alarm of alarms) expect(JSON.stringify(alarm.Dimensions ?? [])).not.toContain('Organization');
    expect(body).not.toContain('"Organization"');
    expect(body).not.toContain('PollSucceeded');
  });

  it('shows each channel by its metrics and every Slack or webhook subscriber in one Logs Insights table, no metric per subscriber', () => {
    const widgetText = JSON.stringify(widgets).replaceAll('\\"', '"');
    // The channel's metrics: the service is their one dimension.
    for (const service of ['webhook-delivery', 'slack-delivery']) {
      for (const metric of [
        'DeliveryLatencyMs',
        'Delivered',
        'DeliveryRetried',
        'DeadLettered',
        'SubscriberPaused',
      ]) {
        expect(widgetText).toContain(`["MealOrderNotifier","${metric}","service","${service}"`);
      }
    }
    expect(widgetText).not.toContain('Subscriber,');
    expect(widgetText).not.toContain('"Subscriber"');
    // One table over both delivery functions' log groups, grouped by subscriber.
    const tables = widgets.filter(
      ({ type, properties }) => type === 'log' && String(properties.query).includes('by subscriber'),
    );
    expect(tables).toHaveLength(1);
    const query = String(tables[0]?.properties.query);
    for (const service of ['webhook-delivery', 'slack-delivery']) {
      expect(query).toContain(
        `SOURCE '<Ref:${logicalIdAt(stack, 'Delivery', service === 'webhook-delivery' ? 'Webhook' : 'Slack', 'Logs')}>'`,
      );
    }
    expect(query).toMatch(/delivered.*retried.*deadLettered.*paused.*pct\(latencyMs, 99\).*by subscriber/);
    // Nothing names a subscriber: the widgets are the same for 2 subscribers or 200.
    for (const id of ['automation', 'cafe-kitchen']) expect(body).not.toContain(id);
    for (const type of ['Webhook', 'Slack']) {
      for (const queue of ['Queue', 'DeadLetterQueue']) {
        expect(body).toContain(logicalIdAt(stack, 'Deliveries', type, queue));
      }
    }
    expect(body).toContain('NumberOfNotificationsFailed');
  });
});

type Widget = { type: string; properties: Record<string, unknown> };

/** The dashboard's widgets, each CloudFormation reference in them written `<Ref:id>`. */
function dashboardWidgets(dashboard: CfnResource): Widget[] {
  const body = dashboard.Properties?.DashboardBody as { 'Fn::Join': [string, unknown[]] } | undefined;
  const [, parts] = body?.['Fn::Join'] ?? ['', []];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = (part as { Ref?: string }).Ref;
      return ref === undefined ? `<${Object.keys(part as object).join('')}>` : `<Ref:${ref}>`;
    })
    .join('');
  return (JSON.parse(text) as { widgets: Widget[] }).widgets;
}

/** "<metric name> <statistic>" of each graphed metric with the organization's dimension. */
