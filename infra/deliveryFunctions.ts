// The Slack and webhook delivery functions: one per channel type that has subscribers, consuming its
// channel's one delivery queue (deliveryQueues.ts). The environment follows deliveryQueueContract.ts and
// holds nothing per subscriber: the queue and dead-letter queue URLs; the config, its subscribers only, is
// compiled into the bundle.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { subscriberSecrets } from '../shared/config/secretReferences.js';
import {
  DELIVERY_BATCH_SIZE,
  DELIVERY_FUNCTION_TIMEOUT_SECONDS,
} from '../shared/contracts/deliveryQueueContract.js';
import type { DeliveryVariables } from '../shared/contracts/functionEnvironments.js';
import type { ChannelQueues } from './deliveryQueues.js';
import {
  generatedNameLength,
  queueUrlStandIn,
  SQS_QUEUE_NAME_MAXIMUM,
  tableNameStandIn,
} from './lambdaEnvironmentSize.js';
import type { NotifierConfig, QueueSubscriberType } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import type { NotifierSecrets } from './notifierSecrets.js';

const CONSTRUCT_IDS: Record<QueueSubscriberType, string> = { webhook: 'Webhook', slack: 'Slack' };
const DESCRIPTIONS: Record<QueueSubscriberType, string> = {
  webhook: 'meal-order-notifier: delivers order events to webhook subscribers as signed POSTs',
  slack: 'meal-order-notifier: delivers order events to Slack subscribers: messages, or the kitchen board',
};

export interface DeliveryFunctionsProps {
  /** Each function gets the subscribers of its type, compiled into its bundle. */
  readonly config: NotifierConfig;
  /** The disabled-subscriber records, and the Slack boards' message map. */
  readonly table: Table;
  /** Each function may read its own subscribers' secrets. */
  readonly secrets: NotifierSecrets;
  /** Each channel's queues; a type without subscribers has none, and gets no function. */
  readonly channels: readonly ChannelQueues[];
  /**
   * Batches of a channel's queue processed at once. Within a batch, different subscribers already run at
   * once; a few batches more let a backlog drain while the fair queue gives the quiet subscribers' messages
   * first, and still keep a receiver to a handful of senders.
   * @default 5
   */
  readonly maxConcurrencyPerQueue?: number;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class DeliveryFunctions extends Construct {
  /** Only the types that have subscribers. */
  readonly functions: ReadonlyMap<QueueSubscriberType, NotifierFunction>;

  constructor(scope: Construct, id: string, props: DeliveryFunctionsProps) {
    super(scope, id);
    const tableName = tableNameStandIn(props.table);
    const functions = new Map<QueueSubscriberType, NotifierFunction>();
    const nameLength = (queue: Queue) =>
      generatedNameLength(queue.node.defaultChild as CfnQueue, SQS_QUEUE_NAME_MAXIMUM);
    for (const { type, subscribers, queue, deadLetterQueue } of props.channels) {
      const deliveryFunction = new NotifierFunction(this, CONSTRUCT_IDS[type], {
        handlerModule: `${type}-delivery/handler.ts`,
        serviceName: SERVICE_NAMES[type],
        description: DESCRIPTIONS[type],
        memorySize: props.memorySize ?? 256,
        timeout: Duration.seconds(DELIVERY_FUNCTION_TIMEOUT_SECONDS),
        ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
        ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
        config: props.config.deliveryConfig(type),
        environment: {
          STATE_TABLE_NAME: props.table.tableName,
          SECRETS_PREFIX: props.secrets.prefix,
          SUBSCRIBER_SECRET_SHARDS: String(props.secrets.shardCount('subscriber-secrets')),
          DELIVERY_QUEUE_URL: queue.queueUrl,
          DEAD_LETTER_QUEUE_URL: deadLetterQueue.queueUrl,
        } satisfies DeliveryVariables,
        environmentStandIns: {
          STATE_TABLE_NAME: tableName,
          DELIVERY_QUEUE_URL: queueUrlStandIn(nameLength(queue)),
          DEAD_LETTER_QUEUE_URL: queueUrlStandIn(nameLength(deadLetterQueue)),
        } satisfies Partial<DeliveryVariables>,
      });
      // The function sends to the queue it consumes (the split, a paused subscriber's delayed copy), which
      // Lambda's recursive loop detection would stop after about 16 rounds of one message: a pause of four
      // hours. Each round here is a new message with its own purpose, and a message only goes round while
      // its subscriber is paused, every 15 minutes, so the loop is meant.
      (deliveryFunction.function.node.defaultChild as CfnFunction).recursiveLoop = 'Allow';

      // Grants consuming the queue, ChangeMessageVisibility (the retry schedule) included.
      deliveryFunction.function.addEventSource(
        new SqsEventSource(queue, {
          batchSize: DELIVERY_BATCH_SIZE,
          reportBatchItemFailures: true,
          maxConcurrency: props.maxConcurrencyPerQueue ?? 5,
        }),
      );
      queue.grantSendMessages(deliveryFunction);
      deadLetterQueue.grantSendMessages(deliveryFunction);
      // The disabled-subscriber records (SUBSCRIBER#<id> / DISABLED); for Slack, the boards' message map
      // (claims are conditional puts; a board's replies and its owed edits are read by Query).
      props.table.grant(
        deliveryFunction,
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        ...(type === 'slack' ? ['dynamodb:Query'] : []),
      );
      props.secrets.grantRead(
        deliveryFunction,
        subscribers.flatMap((subscriber) => subscriberSecrets(subscriber)),
      );
      functions.set(type, deliveryFunction);
    }
    this.functions = functions;
  }
}
