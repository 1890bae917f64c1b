// The alarms, all notifying one alarm topic (on ALARM and on OK): poller errors; organizations overdue
// by the one overdue rule (OrganizationsOverdue, the watchdog's count, one alarm for all of them); organizations whose token the
// API rejects (OrganizationsTokenRejected, the watchdog's count too); listings
// found broken again and again
// (ListingProblems); any message on a dead-letter queue; anything SNS could not deliver to a
// subscription (one alarm for every subscription: its dead-letter queue, and what SNS could not even put
// there); any error of any function, and any throttle in the account; and a publisher falling behind the
// stream. Each description says what to look at first. The topic's policy lets CloudWatch publish this
// stack's alarms to it, and nothing else.
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type ITopic, Subscription, SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OVERDUE_ALARM_PERIOD_MS, OVERDUE_ALARM_PERIODS } from '../shared/contracts/customMetrics.js';
import { TOKEN_REJECTED, TOKEN_REJECTED_RETRY_MS } from '../shared/contracts/tokenRejected.js';
import type { NotifierFunction } from './notifierFunction.js';
import {
  listingProblemsMetric,
  organizationsOverdueMetric,
  organizationsTokenRejectedMetric,
  SERVICE_NAMES,
  subscriberPausedMetric,
} from './notifierMetrics.js';
import type { SubscriptionDeadLetters } from './subscriptionDeadLetters.js';

/**
 * Five-minute periods with listing problems, out of the last six, before the alarm fires. One walk that
 * met an order created mid-walk (its total moved) is expected weather; a record that stays malformed is
 * met in every cycle that walks its listing, and a terminal listing's slow sweep (every five minutes by
 * default) still shows it in half of the periods.
 */
export const LISTING_PROBLEM_PERIODS = { withProblems: 3, of: 6 } as const;

/**
 * What every alarm name of the stack starts with, and what the alarm topic's policy matches alarm ARNs
 * on. A stack name cannot contain `/`, so one stack's prefix never starts another's names (`Notifier/`,
 * `NotifierStaging/`); nor `:`, which would split the ARN that ArnLike compares part by part.
 */
export function alarmNamePrefix(stackName: string): string {
  return `${stackName}/`;
}

/**
 * The alarm topic's name, fixed so that the watchdog, made before the alarms, can be let publish its notice
 * to it by ARN without a reference to the topic.
 */
export function alarmTopicName(stackName: string): string {
  return `${stackName}-alarms`;
}

export interface DeadLetterQueueToWatch {
  /** Names the queue in the alarm, e.g. `acme-hooks DLQ`. */
  readonly label: string;
  /** The queue whose first visible message raises the alarm. */
  readonly queue: IQueue;
  /** What the operator should do about a message on it. */
  readonly advice: string;
}

export interface SubscriptionDeadLettersToWatch {
  /** The dead-letter queue of the SNS subscriptions; the alarm topic's e-mail subscription is attached too. */
  readonly deadLetters: SubscriptionDeadLetters;
  /** The topics besides the alarm topic whose subscriptions dead-letter there (the event topic). */
  readonly topics: readonly ITopic[];
  /** What the operator should do first. */
  readonly advice: string;
}

export interface NotifierAlarmsProps {
  /**
   * Whether the organizations are being polled. Off (`-c polling=off`, e.g. until the tokens are put), the
   * "not polled" alarm still show their state but notify no one: nothing is polled, by request. The stack
   * decides it once, for its schedules and the poller's ticks too.
   */
  readonly pollingEnabled: boolean;
  /** Its errors alarm is the "poller errors" one. */
  readonly poller: NotifierFunction;
  /** Its OrganizationsOverdue count is the "organizations not polled" alarm's metric. */
  readonly watchdog: NotifierFunction;
  /** Watched for falling behind the stream (IteratorAge). */
  readonly publisher: NotifierFunction;
  /** Every function, the poller and publisher included: each gets an errors and a throttles alarm. */
  readonly functions: readonly NotifierFunction[];
  /** Every dead-letter queue of the stack, the publisher's failure queue included. */
  readonly deadLetterQueues: readonly DeadLetterQueueToWatch[];
  /** The SNS subscriptions' dead-letter queue: one alarm for all of them. */
  readonly subscriptionDeadLetters: SubscriptionDeadLettersToWatch;
  /**
   * Subscribed to the alarm topic (SNS asks it to confirm).
   * @default no subscription; subscribe to the topic yourself
   */
  readonly email?: string;
  /**
   * How far the publisher may fall behind the stream.
   * @default Duration.minutes(5)
   */
  readonly maxIteratorAge?: Duration;
  /** Whether the config has Slack app subscribers (the board), the ones that pause for a person. */
  readonly slackApps?: boolean;
}

export class NotifierAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: readonly Alarm[];
  /** Every alarm's name starts with it (alarmNamePrefix). */
  readonly alarmNamePrefix: string;

  constructor(scope: Construct, id: string, props: NotifierAlarmsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const prefix = alarmNamePrefix(stack.stackName);
    this.alarmNamePrefix = prefix;
    const topicName = alarmTopicName(stack.stackName);
    this.topic = new Topic(this, 'Topic', {
      topicName,
      displayName: 'Meal order notifier alarms',
      enforceSSL: true,
    });
    // Not encrypted at rest: CloudWatch can publish to an encrypted topic only if the key's policy lets it,
    // which takes a customer managed key ($1 a month, a third of the fixed base but the dashboard), and
    // what the topic carries is operational: alarm names and descriptions, and the watchdog's notice of
    // organization names with why they are overdue; no order, person or secret. Only over TLS.
    this.#letCloudWatchPublish(prefix);
    if (props.email !== undefined) {
      props.subscriptionDeadLetters.deadLetters.attach(
        new Subscription(this, 'Email', {
          topic: this.topic,
          protocol: SubscriptionProtocol.EMAIL,
          endpoint: props.email,
        }),
      );
    }
    const action = new SnsAction(this.topic);
    const alarms: Alarm[] = [];
    const alarm = (
      alarmId: string,
      metric: IMetric,
      options: {
        name: string;
        description: string;
        threshold: number;
        comparisonOperator: ComparisonOperator;
        treatMissingData: TreatMissingData;
        evaluationPeriods?: number;
        /** @default all of evaluationPeriods */
        datapointsToAlarm?: number;
        /** @default true */
        actionsEnabled?: boolean;
      },
    ) => {
      const created = new Alarm(this, alarmId, {
        metric,
        alarmName: `${prefix}${options.name}`.slice(0, 255),
        alarmDescription: options.description.slice(0, 1024),
        threshold: options.threshold,
        comparisonOperator: options.comparisonOperator,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        datapointsToAlarm: options.datapointsToAlarm ?? options.evaluationPeriods ?? 1,
        treatMissingData: options.treatMissingData,
        actionsEnabled: options.actionsEnabled ?? true,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      alarms.push(created);
      return created;
    };
    const fiveMinutes = Duration.minutes(5);

    // One for every organization: the watchdog publishes the count of overdue ones once a minute. It fires
    // after OVERDUE_ALARM_PERIODS minutes in a row each with one overdue or without data: the rule's
    // allowance leaves room for them, so a real outage (a token rejected, an unreachable API, cycles
    // deferred for budget) notifies within max(5 min, 2 × the planned interval + 1 min) of the last
    // success; a watchdog that does not run leaves minutes without data, which count as overdue.
    alarm(
      'NotPolled',
      organizationsOverdueMetric({
        statistic: 'Maximum',
        period: Duration.millis(OVERDUE_ALARM_PERIOD_MS),
      }),
      {
        name: 'organizations not polled',
        description:
          'One organization or more is overdue: no successful poll cycle within max(5 min, 2 × its planned poll interval + 1 min), or the watchdog did not run. ' +
          `Which ones and why: the watchdog's notice on this topic ("meal-order-notifier: N organizations not polled", sent when the set changes), meal-notifier status --stack ${stack.stackName}, or the watchdog's "organization overdue" log lines (each names the organization and the reason: a token not put (it names the secret and the command that sets it), a rejected token, an unreachable API, cycles deferred because the token's request budget is spent, or no cycle run; see also the poller errors alarm). The dashboard's "Organizations overdue" table lists them too.`,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.BREACHING,
        evaluationPeriods: OVERDUE_ALARM_PERIODS,
        actionsEnabled: props.pollingEnabled,
      },
    );
    // One for the deployment, like its metric: the watchdog counts the organizations whose poll state says
    // their token is rejected, once a minute, so the first minute without one brings it back to OK. No data
    // (no watchdog run) is the not-polled alarm's to say.
    alarm(
      'TokenRejected',
      organizationsTokenRejectedMetric({
        statistic: 'Maximum',
        period: Duration.millis(OVERDUE_ALARM_PERIOD_MS),
      }),
      {
        name: "an organization's token rejected",
        description:
          `${TOKEN_REJECTED}. The Admin API rejected an organization's token (401: wrong, expired or revoked; 403: it may not read that organization). ` +
          `meal-notifier status --stack ${stack.stackName} names the organization and the secret value to put; so do the watchdog's "organization token rejected" log lines. ` +
          `Put a current token under the organization's name in the secrets file and put it (meal-notifier put-secrets --config … --stack ${stack.stackName} --file …), or give the token access to that organization on the API side. ` +
          `No deployment or restart is needed: the organization is tried again every ${TOKEN_REJECTED_RETRY_MS / 60_000} minutes, the poller reads the secret again within as long, and the alarm goes back to OK once no organization's token is rejected. The other organizations are polled meanwhile.`,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        evaluationPeriods: 1,
        actionsEnabled: props.pollingEnabled,
      },
    );
    // One for the deployment, like its metric: the poller's "listing problems" warnings name the organization.
    alarm('ListingProblems', listingProblemsMetric({ statistic: 'Sum', period: fiveMinutes }), {
      name: 'listings broken again and again',
      description:
        "Poll cycles keep finding listings the API answered without error broken: a record skipped as malformed (that order's transitions go unseen while it stays so), a walk whose pages disagree, a uuid listed twice, an empty page that links on. Read the poller's \"listing problems\" warnings: each names the organization, the listing, the page and the order's uuid. A record that stays malformed is a bug on the API side: report it with the uuid.",
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      evaluationPeriods: LISTING_PROBLEM_PERIODS.of,
      datapointsToAlarm: LISTING_PROBLEM_PERIODS.withProblems,
    });

    for (const notifierFunction of props.functions) {
      const fn = notifierFunction.function;
      const name = notifierFunction.serviceName;
      const isPoller = notifierFunction === props.poller;
      alarm(`${name}Errors`, fn.metricErrors({ statistic: 'Sum', period: fiveMinutes }), {
        name: `${name} errors`,
        description: isPoller
          ? 'The poller failed (not an API failure or a token not put yet, which it reports as a failed cycle): Secrets Manager refusing to read a secret, a config it refuses, a DynamoDB or SQS error, or a bug. Its log has the error.'
          : name === SERVICE_NAMES.digest
            ? 'The digest function failed: a digest it claimed was not published, or the state table could not be read. Its log names the digests; a later hourly run sends them once their claim is 15 minutes old.'
            : `The ${name} function failed. Its log has the error; the records it was given are retried by their event source.`,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
    // One for the account, not one per function ($0.10 each): no function of the stack reserves concurrency,
    // so Lambda throttles one only when the account's concurrency is used up, and then throttles whatever
    // asks next. The dashboard's "Function errors and throttles" graph says which of ours were.
    alarm(
      'Throttles',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: fiveMinutes }),
      {
        name: 'functions throttled in the account',
        description:
          "Lambda throttled a function in this account and region: the account's concurrency is used up. A throttled function of this stack waits and is retried by its event source or schedule. See the dashboard's \"Function errors and throttles\" graph for which of this stack's functions were, and check what else runs in this account and region (Lambda's ConcurrentExecutions metric), or ask AWS for a higher concurrency quota.",
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );

    alarm(
      'PublisherIteratorAge',
      props.publisher.function.metric('IteratorAge', { statistic: 'Maximum', period: fiveMinutes }),
      {
        name: 'publisher behind the event stream',
        description:
          'Events wait on the state table stream longer than they should before being published: the publisher is failing and retrying a batch, or is throttled. Its log says which.',
        threshold: (props.maxIteratorAge ?? Duration.minutes(5)).toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );

    if (props.slackApps) {
      // One for the channel, not one per subscriber: the function's `subscriber paused` line names it.
      alarm('SubscriberPaused', subscriberPausedMetric({ statistic: 'Sum', period: fiveMinutes }), {
        name: 'a Slack app subscriber paused',
        description:
          "A Slack app subscriber (the kitchen's board) needs a person: Slack answered invalid_auth, token_revoked or account_inactive (put a new bot token in its secret: the stack's Secret output for it gives the command) or not_in_channel, channel_not_found or is_archived (invite the app to the channel: /invite @kitchen-board). Its deliveries are kept, tried again every 15 minutes, and the board and replies are brought up to date once it is fixed. " +
          'The slack-delivery log line "subscriber paused" names the subscriber and says which of the two to do; meal-notifier deliveries --stack shows what waits.',
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }

    for (const { label, queue, advice } of props.deadLetterQueues) {
      alarm(
        // The construct path, hashed into the logical id, keeps labels that differ only in punctuation apart.
        `DeadLetters ${label}`,
        queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: fiveMinutes }),
        {
          name: `messages on ${label}`,
          description: advice,
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }
    // One for every SNS subscription: a message on their dead-letter queue, or one SNS could not even put
    // there (NumberOfNotificationsFailedToRedriveToDlq, per topic): the only loss left, so it counts too.
    // NumberOfNotificationsFailed is not added: each failure it counts is on the queue, or counted here.
    const watched = props.subscriptionDeadLetters;
    const lost = Object.fromEntries(
      [...watched.topics, this.topic].map((topic, index) => [
        `lost${index}`,
        topic.metric('NumberOfNotificationsFailedToRedriveToDlq', { statistic: 'Sum', period: fiveMinutes }),
      ]),
    );
    alarm(
      'SubscriptionDeadLetters',
      new MathExpression({
        expression: ['FILL(waiting, 0)', ...Object.keys(lost).map((id) => `FILL(${id}, 0)`)].join(' + '),
        usingMetrics: {
          waiting: watched.deadLetters.queue.metricApproximateNumberOfMessagesVisible({
            statistic: 'Maximum',
            period: fiveMinutes,
          }),
          ...lost,
        },
        label: 'undelivered SNS notifications',
        period: fiveMinutes,
      }),
      {
        name: 'notifications SNS could not deliver',
        description: watched.advice,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    this.alarms = alarms;
  }

  /**
   * enforceSSL gives the topic a policy of its own, which replaces SNS's default one (the account's
   * principals may publish) that CloudWatch relied on: without this statement no alarm reaches the topic.
   * CloudWatch may publish for this account's alarms named with this stack's prefix only.
   */
  #letCloudWatchPublish(prefix: string): void {
    const stack = Stack.of(this);
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowThisStacksAlarmsToPublish',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `${prefix}*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
  }
}
