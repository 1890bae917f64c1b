// The poller Lambda: each trigger (the organization's schedule, or a tick from the tick queue) polls one
// organization when it is due (functions/poller/handler.ts), records snapshots, events and bookkeeping in
// the state table, and sends the tick that triggers the organization's next cycle.

import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { AWS_POLLER_TIMEOUT_SECONDS } from '../shared/contracts/awsPollSettings.js';
import type { PollerVariables } from '../shared/contracts/functionEnvironments.js';
import {
  generatedNameLength,
  queueUrlStandIn,
  SQS_QUEUE_NAME_MAXIMUM,
  tableNameStandIn,
} from './lambdaEnvironmentSize.js';
import type { NotifierConfig } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import type { NotifierSecrets } from './notifierSecrets.js';
import type { PollTickQueue } from './pollTickQueue.js';
import { catchUpAfterSecondsVariable } from './subscriptionFilterPolicy.js';

/**
 * As long as a cycle's lease runs (AWS_LEASE_TERMS): a run that Lambda cuts short cannot give its lease
 * back, must never still be running when the lease runs out and another run takes it, and should not hold
 * the organization up for long after. A cycle waits for budget at most 10 s at a time
 * (organizationClients.ts), and only for requests the budget frees within that wait, so a cycle of one
 * minute's budget fits with room to spare.
 */
export const POLLER_TIMEOUT = Duration.seconds(AWS_POLLER_TIMEOUT_SECONDS);

/** The poller's memory unless the deployment says otherwise; see PollerFunctionProps.memorySize. */
export const POLLER_MEMORY_MB = 256;

export interface PollerFunctionProps {
  /** Its API settings and organizations are compiled into the bundle. */
  readonly config: NotifierConfig;
  /** The state table: snapshots, events, poll state, leases, request budgets. */
  readonly table: Table;
  /** The poller may read the secret of the organizations' tokens. */
  readonly secrets: NotifierSecrets;
  /** The poller consumes its ticks and sends the next one (TICK_QUEUE_URL). */
  readonly ticks: PollTickQueue;
  /**
   * Ticks per invocation. One: each tick is due at its own moment, and one queued behind another
   * organization's cycle in the same batch would run that cycle's length late; the timeout and memory
   * are sized for one cycle, too.
   * @default 1
   */
  readonly tickBatchSize?: number;
  /**
   * Whether the poller takes ticks from the queue. Off together with the schedules (the stack's
   * `pollingEnabled`): a chain of ticks already running would otherwise go on polling.
   * @default true
   */
  readonly ticksEnabled?: boolean;
  /**
   * How long Lambda keeps a schedule's (asynchronous) invocation it could not start yet, e.g. throttled.
   * Lambda's own retries of a failed one are off: the next trigger is the retry.
   * @default Duration.minutes(1), the least Lambda allows
   */
  readonly maxEventAge?: Duration;
  /**
   * Megabytes. `npm run bench` runs the deployed bundle with the heap limits Lambda sets for this size, and
   * measures its peak resident memory over the reference organization's cycles (1,000 orders in the
   * window, the first cycle's baseline included) at about 165 MB (`poller_lambda_max_rss_mb`), leaving
   * some 90 MB for Lambda's runtime client and larger organizations (a cycle holds every snapshot: 100,000
   * add about 110 MB). Lambda bills every millisecond of a cycle's waits on the API at this size, so more
   * costs in proportion. Raise it for several thousand orders in the window (`-c pollerMemory`).
   * @default POLLER_MEMORY_MB
   */
  readonly memorySize?: number;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class PollerFunction extends NotifierFunction {
  constructor(scope: Construct, id: string, props: PollerFunctionProps) {
    const tickQueue = props.ticks.queue;
    super(scope, id, {
      handlerModule: 'poller/handler.ts',
      serviceName: SERVICE_NAMES.poller,
      description:
        'meal-order-notifier: polls one organization per trigger when due, records its order events',
      memorySize: props.memorySize ?? POLLER_MEMORY_MB,
      timeout: POLLER_TIMEOUT,
      ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
      ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
      config: props.config.pollerConfig(),
      configFacts: { awsDefaultIntervals: props.config.awsDefaultIntervals },
      environment: {
        STATE_TABLE_NAME: props.table.tableName,
        SECRETS_PREFIX: props.secrets.prefix,
        TICK_QUEUE_URL: tickQueue.queueUrl,
        CATCH_UP_AFTER_SECONDS: catchUpAfterSecondsVariable(props.config.parsed.subscribers),
      } satisfies PollerVariables,
      environmentStandIns: {
        STATE_TABLE_NAME: tableNameStandIn(props.table),
        TICK_QUEUE_URL: queueUrlStandIn(
          generatedNameLength(tickQueue.node.defaultChild as CfnQueue, SQS_QUEUE_NAME_MAXIMUM),
        ),
      } satisfies Partial<PollerVariables>,
    });
    this.function.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: props.maxEventAge ?? Duration.minutes(1),
    });
    // Grants consuming the queue (ReceiveMessage, DeleteMessage, …). No partial batch responses: a tick
    // is never retried, the schedule restarts a broken chain (functions/poller/handler.ts).
    this.function.addEventSource(
      new SqsEventSource(tickQueue, {
        batchSize: props.tickBatchSize ?? 1,
        enabled: props.ticksEnabled ?? true,
      }),
    );
    // SendMessage alone, not grantSendMessages' GetQueueAttributes and GetQueueUrl: the URL is in the
    // environment, and the queue is SSE-SQS, so no key grant is needed either.
    tickQueue.grant(this, 'sqs:SendMessage');
    // Snapshots are one Query; a commit is a TransactWriteItems of Puts (authorized as PutItem); the budget
    // log is GetItem + UpdateItem; a lease is UpdateItem, and GetItem to name who holds it; poll state is
    // GetItem + UpdateItem.
    props.table.grant(
      this,
      'dynamodb:Query',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    );
    props.secrets.grantReadOrganizationTokens(this);
  }
}
