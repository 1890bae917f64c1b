// The watchdog of every organization's chain of ticks: one function (functions/watchdog/handler.ts) on one
// EventBridge Scheduler schedule, once a minute, whatever the number of organizations. It reads each poll
// state, restarts a lost chain with a tick on the poller's tick queue (after a deployment, or when a tick
// was lost), and publishes how many organizations are overdue (OrganizationsOverdue), which one alarm
// watches, and a notice naming them to the alarm topic when their set changes. A run that fails is not
// retried: the next minute's run reads everything afresh.
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Schedule, ScheduleExpression, ScheduleTargetInput, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { WatchdogVariables } from '../shared/contracts/functionEnvironments.js';
import {
  generatedNameLength,
  queueUrlStandIn,
  SQS_QUEUE_NAME_MAXIMUM,
  tableNameStandIn,
} from './lambdaEnvironmentSize.js';
import type { NotifierConfig } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import type { PollTickQueue } from './pollTickQueue.js';
import { scheduleGroupAndInvokeRole } from './scheduleInvokeRole.js';

export interface PollWatchdogProps {
  /** Its organizations are compiled into the bundle. */
  readonly config: NotifierConfig;
  /** Every organization's poll state is read from it. */
  readonly table: Table;
  /** Where a lost chain's restarting tick goes. */
  readonly ticks: PollTickQueue;
  /**
   * The alarm topic's ARN (its name is fixed, alarms.ts, so the watchdog needs no reference to the topic)
   * and the key that encrypts it: the notice naming the overdue organizations goes there.
   */
  readonly alarmTopic: { readonly arn: string; readonly key: IKey };
  /** Whether the schedule runs: off together with the poller's ticks (`-c polling=off`). @default true */
  readonly enabled?: boolean;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class PollWatchdog extends NotifierFunction {
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: PollWatchdogProps) {
    const tickQueue = props.ticks.queue;
    super(scope, id, {
      handlerModule: 'watchdog/handler.ts',
      serviceName: SERVICE_NAMES.watchdog,
      description:
        "meal-order-notifier: once a minute, restarts every organization's lost chain of poll ticks and counts the overdue ones",
      // A thousand poll states read 16 at a time take about a second; the minute is the ceiling.
      timeout: Duration.seconds(55),
      ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
      ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
      config: props.config.pollerConfig(),
      environment: {
        STATE_TABLE_NAME: props.table.tableName,
        TICK_QUEUE_URL: tickQueue.queueUrl,
        ALARM_TOPIC_ARN: props.alarmTopic.arn,
      } satisfies WatchdogVariables,
      environmentStandIns: {
        STATE_TABLE_NAME: tableNameStandIn(props.table),
        TICK_QUEUE_URL: queueUrlStandIn(
          generatedNameLength(tickQueue.node.defaultChild as CfnQueue, SQS_QUEUE_NAME_MAXIMUM),
        ),
        ALARM_TOPIC_ARN: props.alarmTopic.arn,
      } satisfies WatchdogVariables,
    });
    // One run at a time is enough, and the next minute's is the retry.
    this.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    // GetItem: the poll states and the notice item; PutItem: the notice item (overdueNotice.ts).
    props.table.grant(this, 'dynamodb:GetItem', 'dynamodb:PutItem');
    this.function.addToRolePolicy(
      new PolicyStatement({ actions: ['sns:Publish'], resources: [props.alarmTopic.arn] }),
    );
    props.alarmTopic.key.grant(this, 'kms:GenerateDataKey*', 'kms:Decrypt');
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      reason:
        'Publishing the overdue notice to the KMS-encrypted alarm topic needs a data key from that one key; the wildcard covers GenerateDataKey and its WithoutPlaintext variant.',
    });
    tickQueue.grant(this, 'sqs:SendMessage');

    const { group, role } = scheduleGroupAndInvokeRole(this, {
      target: this,
      description: 'meal-order-notifier: lets the watchdog schedule invoke the watchdog',
      targetName: 'the watchdog',
      groupName: 'schedule group',
    });
    this.schedule = new Schedule(this, 'Schedule', {
      scheduleGroup: group,
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      target: new LambdaInvoke(this.function, {
        role,
        input: ScheduleTargetInput.fromObject({}),
        retryAttempts: 0,
        maxEventAge: Duration.minutes(1),
      }),
      // On time: a flexible window would delay the restart of a broken chain.
      timeWindow: TimeWindow.off(),
      description: "Restarts every organization's lost chain of poll ticks, and counts the overdue ones",
      enabled: props.enabled ?? true,
    });
  }
}
