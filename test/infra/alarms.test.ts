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
import { DELIVERY_OUTCOME_MESSAGES } from '../../shared/contracts/deliveryLogLines.js';
import { PausedCount } from '../../shared/delivery/sqs/pausedCount.js';
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

  it('alarms on a paused Slack app subscriber, once for the channel, on the metric slack-delivery publishes, saying both fixes, only when the config has one', () => {
    expect(alarms.filter((alarm) => alarm.MetricName === 'SubscriberPaused')).toEqual([]);
    const boardAlarms = resourcesOfType(notifierApp(withBoard()).template, 'AWS::CloudWatch::Alarm')
      .map(([, alarm]) => alarm.Properties ?? {})
      .filter((alarm) => alarm.MetricName === 'SubscriberPaused');
    expect(boardAlarms).toHaveLength(1);
    // The blob slack-delivery writes at a batch's end: same namespace, name and dimension set.
    const output = captureOutput();
    const paused = new PausedCount();
    paused.add('kitchen-board');
    paused.publish(new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.slack }));
    const [blob] = output.emf() as {
      service?: string;
      _aws: {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
      };
    }[];
    const [published] = blob?._aws.CloudWatchMetrics ?? [];
    expect(blob?.service).toBe(SERVICE_NAMES.slack);
    expect(published?.Namespace).toBe(boardAlarms[0]?.Namespace);
    expect(published?.Metrics.map(({ Name }) => Name)).toEqual([boardAlarms[0]?.MetricName]);
    expect(published?.Dimensions).toEqual([
      property<{ Name: string }[]>(boardAlarms[0] ?? {}, 'Dimensions').map(({ Name }) => Name),
    ]);
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
    // One query per log group, grouped by organization: never one per organization.
    const overdue = queries.filter((query) => query.includes(`SOURCE '<Ref:${watchdogLogs}>'`));
    const cycles = queries.filter((query) => query.includes(`SOURCE '<Ref:${pollerLogs}>'`));
    expect(overdue).toHaveLength(1);
    expect(cycles).toHaveLength(1);
    expect(overdue[0]).toContain('filter message = "organization overdue"');
    expect(overdue[0]).toContain('by organization');
    expect(cycles[0]).toMatch(
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

  it('graphs no custom metric that no alarm reads: the only one is the overdue count, which has its alarm', () => {
    const withBoardApp = notifierApp(withBoard());
    for (const app of [
      { template, widgets },
      { template: withBoardApp.template, widgets: widgetsOf(withBoardApp.template) },
    ]) {
      const graphed = customMetricsGraphed(app.widgets);
      const alarmed = new Set(
        resourcesOfType(app.template, 'AWS::CloudWatch::Alarm')
          .map(([, alarm]) => alarm.Properties ?? {})
          .filter((alarm) => alarm.Namespace === METRICS_NAMESPACE)
          .map((alarm) => `${alarm.MetricName} ${JSON.stringify(alarm.Dimensions)}`),
      );
      expect(graphed).toEqual(['OrganizationsOverdue service=watchdog']);
      expect(alarmed).toContain(
        `OrganizationsOverdue ${JSON.stringify([{ Name: 'service', Value: 'watchdog' }])}`,
      );
    }
    // Every custom metric the stack's alarms read, Slack app subscribers and all: 3, and SubscriberPaused.
    expect(
      resourcesOfType(withBoardApp.template, 'AWS::CloudWatch::Alarm')
        .map(([, alarm]) => alarm.Properties ?? {})
        .filter((alarm) => alarm.Namespace === METRICS_NAMESPACE)
        .map((alarm) => alarm.MetricName)
        .sort(),
    ).toEqual(['ListingProblems', 'OrganizationsOverdue', 'OrganizationsTokenRejected', 'SubscriberPaused']);
  });

  it("shows each channel's latency and outcomes from its own function's outcome lines, in five-minute bins, no metric of its own", () => {
    for (const [type, service] of [
      ['Webhook', 'webhook-delivery'],
      ['Slack', 'slack-delivery'],
    ] as const) {
      const logs = `SOURCE '<Ref:${logicalIdAt(stack, 'Delivery', type, 'Logs')}>'`;
      const row = widgets.filter(
        ({ type: kind, properties }) =>
          kind === 'log' && String(properties.title).startsWith(`${type.toLowerCase()}:`),
      );
      const [latency, outcomes] = row;
      expect(row.map(({ properties }) => properties.view)).toEqual(['timeSeries', 'timeSeries']);
      for (const { properties } of row) {
        const query = String(properties.query);
        // Its own function's log group alone: the other channel's lines are not scanned.
        expect(query.startsWith(`${logs} | `), `${service}: ${query}`).toBe(true);
        expect(query.match(/SOURCE/g)).toHaveLength(1);
        expect(query).toMatch(/ by bin\(5m\)$/);
      }
      expect(String(latency?.properties.query)).toContain(
        'filter message = "delivered" and ispresent(latencyMs)',
      );
      expect(String(latency?.properties.query)).toContain(
        'pct(latencyMs, 50) as p50, pct(latencyMs, 99) as p99',
      );
      const outcomesQuery = String(outcomes?.properties.query);
      for (const [name, message] of [
        ['delivered', DELIVERY_OUTCOME_MESSAGES.delivered],
        ['retried', DELIVERY_OUTCOME_MESSAGES.deferred],
        ['deadLettered', DELIVERY_OUTCOME_MESSAGES.deadLettered],
        ['paused', DELIVERY_OUTCOME_MESSAGES.paused],
        ['disabled', DELIVERY_OUTCOME_MESSAGES.disabled],
      ]) {
        expect(outcomesQuery).toContain(`sum(strcontains(message, "${message}")) as ${name}`);
      }
    }
    // The counts go by substring: a line must match its own outcome's message and no other's.
    const messages = Object.values(DELIVERY_OUTCOME_MESSAGES);
    for (const message of messages) {
      expect(messages.filter((other) => other.includes(message))).toEqual([message]);
    }
    const widgetText = JSON.stringify(widgets).replaceAll('\\"', '"');
    for (const metric of [
      'DeliveryLatencyMs',
      'Delivered',
      'DeliveryRetried',
      'DeadLettered',
      'SubscriberDisabled',
      'SubscriberPaused',
    ]) {
      expect(widgetText).not.toContain(`"MealOrderNotifier","${metric}"`);
    }
    // The channels' queues stay graphed: SQS's own metrics, free.
    for (const type of ['Webhook', 'Slack']) {
      for (const queue of ['Queue', 'DeadLetterQueue']) {
        expect(body).toContain(logicalIdAt(stack, 'Deliveries', type, queue));
      }
    }
    expect(body).toContain('NumberOfNotificationsFailed');
  });

  it('shows every Slack or webhook subscriber in one Logs Insights table over both delivery log groups', () => {
    const tables = widgets.filter(
      ({ type, properties }) => type === 'log' && String(properties.query).includes('by subscriber'),
    );
    expect(tables).toHaveLength(1);
    const query = String(tables[0]?.properties.query);
    for (const type of ['Webhook', 'Slack']) {
      expect(query).toContain(`SOURCE '<Ref:${logicalIdAt(stack, 'Delivery', type, 'Logs')}>'`);
    }
    expect(query).toContain(`filter message in ${JSON.stringify(Object.values(DELIVERY_OUTCOME_MESSAGES))}`);
    expect(query).toMatch(
      /delivered.*retried.*deadLettered.*paused.*max\(attempts\).*pct\(latencyMs, 99\).*by subscriber/,
    );
    // Nothing names a subscriber: the widgets are the same for 2 subscribers or 200.
    for (const id of ['automation', 'cafe-kitchen']) expect(body).not.toContain(id);
  });

  it('queries the delivery log groups 5 times a view over its range (6 hours unless the viewer picks another), whatever the subscribers', () => {
    // The dashboard's range, which every log widget's query scans: 6 hours when it opens.
    expect(body).toContain(String.raw`{\"start\":\"-PT6H\"`);
    const deliveryQueries = (all: Widget[]) =>
      all
        .filter(({ type }) => type === 'log')
        .map(({ properties }) => String(properties.query))
        .filter((query) => /Delivery(Webhook|Slack)/.test(query));
    expect(deliveryQueries(widgets)).toHaveLength(5);
    const more = exampleConfig();
    for (let index = 0; index < 30; index += 1) {
      more.subscribers.push({
        id: `hook-${index}`,
        type: 'webhook',
        url: `https://hooks.example.org/${index}`,
        secret: { env: `HOOK_${index}_SECRET` },
      } as (typeof more.subscribers)[number]);
    }
    expect(deliveryQueries(widgetsOf(notifierApp(more).template))).toEqual(deliveryQueries(widgets));
  });
});

/** A config with a Slack app subscriber (the kitchen's board): the one that can pause. */
function withBoard() {
  const withBoard = exampleConfig();
  withBoard.subscribers.push({
    id: 'kitchen-board',
    type: 'slack',
    botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' },
    channel: 'C0123ABCD',
  } as (typeof withBoard.subscribers)[number]);
  return withBoard;
}

function widgetsOf(appTemplate: typeof template): Widget[] {
  const [, board] = resourcesOfType(appTemplate, 'AWS::CloudWatch::Dashboard')[0] ?? [];
  return dashboardWidgets(board as CfnResource);
}

/** "<name> <dimension>=<value>" of every metric of the namespace a graph widget draws. */
function customMetricsGraphed(all: Widget[]): string[] {
  return all
    .filter(({ type }) => type === 'metric')
    .flatMap(({ properties }) => (properties.metrics as unknown[][] | undefined) ?? [])
    .filter((metric) => metric[0] === METRICS_NAMESPACE)
    .map((metric) => `${metric[1]} ${metric[2]}=${metric[3]}`);
}

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
