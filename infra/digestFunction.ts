// The digest function (functions/digest/handler.ts): on each run of its schedule, builds the e-mail digests
// of the periods that have ended from the state table's event log, claims each there by its deterministic
// id, and publishes it to the event topic for its one subscriber.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { DigestVariables } from '../shared/contracts/functionEnvironments.js';
import { grantPublishToTopic } from './eventTopic.js';
import { tableNameStandIn, topicArnStandIn } from './lambdaEnvironmentSize.js';
import type { NotifierConfig } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';

export interface DigestFunctionProps {
  /** Its organizations and the e-mail subscribers with a digest are compiled into the bundle. */
  readonly config: NotifierConfig;
  /** The state table: the event log it reads, and the digests' claims it writes. */
  readonly table: Table;
  /** The event topic the digests are published to. */
  readonly topic: Topic;
  /**
   * Well above a run's work (one Query per organization, one Put and one Publish per digest), and below
   * the claim timeout (DEFAULT_DIGEST_CLAIM_TIMEOUT_MS), so a claim is only taken again from a run that is
   * over.
   * @default Duration.minutes(2)
   */
  readonly timeout?: Duration;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class DigestFunction extends NotifierFunction {
  constructor(scope: Construct, id: string, props: DigestFunctionProps) {
    super(scope, id, {
      handlerModule: 'digest/handler.ts',
      serviceName: SERVICE_NAMES.digest,
      description: 'meal-order-notifier: builds the e-mail digests of ended periods and publishes them',
      timeout: props.timeout ?? Duration.minutes(2),
      ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
      ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
      config: props.config.digestConfig(),
      environment: {
        STATE_TABLE_NAME: props.table.tableName,
        TOPIC_ARN: props.topic.topicArn,
      } satisfies DigestVariables,
      environmentStandIns: {
        STATE_TABLE_NAME: tableNameStandIn(props.table),
        TOPIC_ARN: topicArnStandIn(props.topic),
      } satisfies Partial<DigestVariables>,
    });
    // A failed run is not retried by Lambda: its claims hold for a while, and the next hourly run retries.
    this.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(5) });
    // The event log is one Query per organization; a claim is a conditional PutItem, marking it sent an
    // UpdateItem.
    props.table.grant(this, 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem');
    grantPublishToTopic(props.topic, this);
  }
}
