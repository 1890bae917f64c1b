// The notifier's one stack, composed from one construct per concern, all driven by the config file the
// local runner reads:
//
//   poller Lambda ⇄ tick queue (SQS; each cycle sends the tick of the next, delayed until it is due)
//   → DynamoDB state table; EventBridge Scheduler (one schedule, every minute) → watchdog Lambda: restarts
//   every lost chain of ticks, counts the overdue organizations (one alarm)
//   → stream (inserted event items) → publisher Lambda → SNS event topic (KMS)
//   → e-mail subscriptions | per Slack/webhook subscriber: SQS queue (+ DLQ) → delivery Lambda
//   (every SNS subscription: a redrive policy to one SNS dead-letter queue, one alarm)
//   EventBridge Scheduler (hourly, only when an e-mail subscriber has a digest) → digest Lambda → the
//   event topic, for that subscriber's digest subscriptions alone
//
// with secrets in Secrets Manager, alarms to an alarm topic and a CloudWatch dashboard.

import { RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EmailSubscriber } from '../shared/config/configSchema.js';
import { digestSubscribers } from '../shared/config/digestSubscribers.js';
import type { DeliverySubscriber } from '../shared/contracts/deliveryQueueContract.js';
import { alarmTopicName, NotifierAlarms } from './alarms.js';
import { NotifierDashboard } from './dashboard.js';
import { DeliveryFunctions } from './deliveryFunctions.js';
import { DeliveryQueues } from './deliveryQueues.js';
import { DigestFunction } from './digestFunction.js';
import { DigestSchedule } from './digestSchedule.js';
import { EmailSubscriptions } from './emailSubscriptions.js';
import { EventTopic } from './eventTopic.js';
import { NotifierConfig } from './notifierConfig.js';
import type { NotifierFunction } from './notifierFunction.js';
import { NotifierSecrets } from './notifierSecrets.js';
import { PollerFunction } from './pollerFunction.js';
import { PollTickQueue } from './pollTickQueue.js';
import { PollWatchdog } from './pollWatchdog.js';
import { Publisher } from './publisher.js';
import { checkRolePolicySizes } from './rolePolicySize.js';
import { assertFilterPoliciesFit, assertStackFits } from './stackLimits.js';
import { addStackOutputs } from './stackOutputs.js';
import { StateTable } from './stateTable.js';
import { SubscriptionDeadLetters } from './subscriptionDeadLetters.js';
import { catchUpAfterSecondsVariable } from './subscriptionFilterPolicy.js';

export interface MealOrderNotifierStackProps extends StackProps {
  /** The config's JSON as written in the file (secret references only); validated here. */
  readonly config: unknown;
  /** Names the config in error messages, e.g. its path. @default 'config' */
  readonly configSource?: string;
  /** Secrets Manager names are this prefix + each reference's `env` name. @default `<stack name>/` */
  readonly secretsPrefix?: string;
  /** Subscribed to the alarm topic. @default none */
  readonly alarmEmail?: string;
  /**
   * What `cdk destroy` (or a replacement) does with the state table, the secrets and the log groups. Kept
   * by default, except when the deployment that created them fails and rolls back: a retry then finds no
   * leftover secret holding its name. DESTROY suits a trial deployment.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Whether the poll schedules and the digest schedule run and the poller takes ticks; off, the stack
   * deploys without polling or digests. @default true
   */
  readonly pollingEnabled?: boolean;
  /** The poller's memory in MB (PollerFunctionProps.memorySize). @default POLLER_MEMORY_MB */
  readonly pollerMemoryMb?: number;
  /**
   * The account's SNS quota of filter policies on one topic (raised on request): more filtered
   * subscriptions on the event topic are refused at synth. @default DEFAULT_FILTER_POLICIES_PER_TOPIC (200)
   */
  readonly snsFilterPolicies?: number;
}

export class MealOrderNotifierStack extends Stack {
  readonly config: NotifierConfig;
  readonly poller: PollerFunction;
  readonly publisher: Publisher;
  readonly deliveryFunctions: DeliveryFunctions;
  /** Only when an enabled e-mail subscriber has a digest. */
  readonly digest: DigestFunction | undefined;
  /** The widgets on its dashboard, as the limits check counts them. */
  readonly dashboardWidgetCount: number;

  constructor(scope: Construct, id: string, props: MealOrderNotifierStackProps) {
    super(scope, id, props);
    Tags.of(this).add('application', 'meal-order-notifier');
    this.config = new NotifierConfig(props.config, props.configSource);
    const config = this.config.parsed;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    // Decided here once: the schedules, the poller's ticks, the "not polled" alarms and the stack's output
    // must all agree on whether the organizations are polled.
    const pollingEnabled = props.pollingEnabled ?? true;

    const state = new StateTable(this, 'State', { removalPolicy });
    const secrets = new NotifierSecrets(this, 'Secrets', {
      config,
      ...(props.secretsPrefix === undefined ? {} : { prefix: props.secretsPrefix }),
      removalPolicy,
    });

    const ticks = new PollTickQueue(this, 'Ticks');
    this.poller = new PollerFunction(this, 'Poller', {
      config: this.config,
      table: state.table,
      secrets,
      ticks,
      ticksEnabled: pollingEnabled,
      ...(props.pollerMemoryMb === undefined ? {} : { memorySize: props.pollerMemoryMb }),
      logRemovalPolicy: removalPolicy,
    });
    const watchdog = new PollWatchdog(this, 'Watchdog', {
      config: this.config,
      table: state.table,
      ticks,
      alarmTopicArn: this.formatArn({ service: 'sns', resource: alarmTopicName(this.stackName) }),
      enabled: pollingEnabled,
      logRemovalPolicy: removalPolicy,
    });

    const events = new EventTopic(this, 'Events');
    this.publisher = new Publisher(this, 'Publisher', {
      config: this.config,
      table: state.table,
      topic: events.topic,
      catchUpAfterSeconds: catchUpAfterSecondsVariable(config.subscribers),
      logRemovalPolicy: removalPolicy,
    });

    const emailSubscribers = config.subscribers.filter(
      (subscriber): subscriber is EmailSubscriber => subscriber.type === 'email',
    );
    const subscriptionDeadLetters = new SubscriptionDeadLetters(this, 'SubscriptionDeadLetters');
    new EmailSubscriptions(this, 'Email', {
      topic: events.topic,
      subscribers: emailSubscribers,
      deadLetters: subscriptionDeadLetters,
    });
    const queues = new DeliveryQueues(this, 'Deliveries', {
      topic: events.topic,
      deadLetters: subscriptionDeadLetters,
      subscribers: config.subscribers.filter(
        (subscriber): subscriber is DeliverySubscriber => subscriber.type !== 'email',
      ),
    });
    this.deliveryFunctions = new DeliveryFunctions(this, 'Delivery', {
      config: this.config,
      table: state.table,
      secrets,
      channels: queues.channels,
      logRemovalPolicy: removalPolicy,
    });

    // Deployed only when some subscriber has a digest: a config without one gets the stack it always had.
    this.digest =
      digestSubscribers(config.subscribers).length === 0
        ? undefined
        : new DigestFunction(this, 'Digest', {
            config: this.config,
            table: state.table,
            topic: events.topic,
            logRemovalPolicy: removalPolicy,
          });
    // Polling off pauses the deployment's schedules, the digests' too: with nothing polled they would send
    // empty or stale digests, and `-c polling=off` is what a deployment without its secrets yet uses.
    if (this.digest !== undefined) {
      new DigestSchedule(this, 'DigestSchedule', { digest: this.digest, enabled: pollingEnabled });
    }

    const functions: NotifierFunction[] = [
      this.poller,
      watchdog,
      this.publisher.function,
      ...this.deliveryFunctions.functions.values(),
      ...(this.digest === undefined ? [] : [this.digest]),
    ];
    const alarms = new NotifierAlarms(this, 'Alarms', {
      slackApps: config.subscribers.some(
        (subscriber) => subscriber.type === 'slack' && subscriber.botToken !== undefined,
      ),
      pollingEnabled,
      poller: this.poller,
      watchdog,
      publisher: this.publisher.function,
      functions,
      deadLetterQueues: [
        ...queues.channels.map(({ type, deadLetterQueue }) => ({
          label: `${type} DLQ`,
          queue: deadLetterQueue,
          advice:
            `Deliveries to ${type} subscribers failed for good (a refusal, a receiver gone, or the retry schedule spent). ` +
            `Each message names its subscriber and the reason in its attributes: meal-notifier deliveries --stack ${this.stackName} --failed lists them by subscriber. Fix the cause, then move one subscriber's back with meal-notifier replay --stack ${this.stackName} --subscriber <id> --dead-letters (docs/aws.md, "Operate it").`,
        })),
        {
          label: 'publisher failure queue',
          queue: this.publisher.failureQueue,
          advice: `The publisher gave up on stream records: those events were recorded but not published. Each message names the shard and sequence numbers; the publisher log says why. Once the cause is fixed, meal-notifier republish --stack ${this.stackName} publishes them (docs/aws.md, "Operate it").`,
        },
      ],
      subscriptionDeadLetters: {
        deadLetters: subscriptionDeadLetters,
        topics: [events.topic],
        advice:
          'SNS could not deliver notifications to a subscription: a queue whose policy refuses the event topic or that was deleted, an e-mail address SNS could not deliver to, retries spent. They are on the SNS dead-letter queue, or counted as lost by NumberOfNotificationsFailedToRedriveToDlq when that queue refused them too. ' +
          `First: meal-notifier deliveries --stack ${this.stackName} --failed lists them, each with the subscriber it was for when the message tells. Fix the cause, then meal-notifier replay --stack ${this.stackName} --subscriber ID --dead-letters sends a Slack or webhook one again to that subscriber's queue alone (docs/aws.md, "Operate it").`,
      },
      ...(props.alarmEmail === undefined ? {} : { email: props.alarmEmail }),
    });
    const dashboard = new NotifierDashboard(this, 'Dashboard', {
      requestsPerMinute: config.api.requestsPerMinute,
      watchdog,
      channels: queues.channels,
      deliveryFunctions: this.deliveryFunctions.functions,
      emailSubscriberIds: emailSubscribers.map((subscriber) => subscriber.id),
      poller: this.poller,
      topic: events.topic,
      functions,
      publisher: this.publisher.function,
      publisherFailureQueue: this.publisher.failureQueue,
    });

    addStackOutputs(this, {
      table: state.table,
      eventTopic: events.topic,
      alarmTopic: alarms.topic,
      dashboardName: dashboard.dashboard.dashboardName,
      secrets: secrets.all,
      channels: queues.channels,
      publisherFailureQueue: this.publisher.failureQueue,
      subscriptionDeadLetterQueue: subscriptionDeadLetters.queue,
      pollingEnabled,
    });
    // The narrower limit first: a config of many e-mail recipients is over it long before the others.
    assertFilterPoliciesFit(this, events.topic, props.snsFilterPolicies);
    this.dashboardWidgetCount = dashboard.widgetCount;
    assertStackFits(this, dashboard.widgetCount);
    // At synth, once every grant is in and CDK has split what it would: the policies as they deploy.
    checkRolePolicySizes(this);
  }
}
