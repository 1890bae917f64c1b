// The Slack and webhook delivery functions: one per subscriber type that has subscribers (a function with
// no queue to consume would refuse to start), consuming every queue of its type. The environment follows
// deliveryQueueContract.ts: QUEUE_SUBSCRIBERS maps each queue ARN to its subscriber, DLQ_URLS each
// subscriber to its dead-letter queue; the config, its subscribers only, is compiled into the bundle.
import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { subscriberSecrets } from '../shared/config/secretReferences.js';
import {
  DELIVERY_BATCH_SIZE,
  DELIVERY_FUNCTION_TIMEOUT_SECONDS,
} from '../shared/contracts/deliveryQueueContract.js';
import type { DeliveryVariables } from '../shared/contracts/functionEnvironments.js';
import {
  generatedNameLength,
  queueArnStandIn,
  queueUrlStandIn,
  SQS_QUEUE_NAME_MAXIMUM,
  tableNameStandIn,
} from './lambdaEnvironmentSize.js';
import type { NotifierConfig, QueueSubscriberType } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import type { NotifierSecrets } from './notifierSecrets.js';
import type { SubscriberQueue } from './subscriberQueues.js';

const DELIVERED_TYPES: readonly QueueSubscriberType[] = ['webhook', 'slack'];
const CONSTRUCT_IDS: Record<QueueSubscriberType, string> = { webhook: 'Webhook', slack: 'Slack' };
const DESCRIPTIONS: Record<QueueSubscriberType, string> = {
  webhook: 'meal-order-notifier: delivers order events to webhook subscribers as signed POSTs',
  slack: 'meal-order-notifier: delivers order events to Slack subscribers as Block Kit messages',
};

export interface DeliveryFunctionsProps {
  /** Each function gets the subscribers of its type, compiled into its bundle. */
  readonly config: NotifierConfig;
  /** Read and written for the disabled-subscriber records only. */
  readonly table: Table;
  /** Each function may read its own subscribers' secrets. */
  readonly secrets: NotifierSecrets;
  /** Every Slack and webhook subscriber's queue pair; a type without any gets no function. */
  readonly queues: readonly SubscriberQueue[];
  /**
   * Batches of one queue processed at once. Two, the least SQS event sources allow: a receiver (and a Slack
   * webhook, paced at one message a second) sees at most two senders, and one subscriber's backlog cannot
   * take every concurrent execution.
   * @default 2
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
    const stack = Stack.of(this);
    const tableName = tableNameStandIn(props.table);
    const functions = new Map<QueueSubscriberType, NotifierFunction>();
    for (const type of DELIVERED_TYPES) {
      const queues = props.queues.filter(({ subscriber }) => subscriber.type === type);
      if (queues.length === 0) continue;
      const nameLength = (queue: SubscriberQueue['queue']) =>
        generatedNameLength(queue.node.defaultChild as CfnQueue, SQS_QUEUE_NAME_MAXIMUM);
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
          QUEUE_SUBSCRIBERS: stack.toJsonString(
            Object.fromEntries(queues.map(({ queue, subscriber }) => [queue.queueArn, subscriber.id])),
          ),
          DLQ_URLS: stack.toJsonString(
            Object.fromEntries(
              queues.map(({ deadLetterQueue, subscriber }) => [subscriber.id, deadLetterQueue.queueUrl]),
            ),
          ),
        } satisfies DeliveryVariables,
        environmentStandIns: {
          STATE_TABLE_NAME: tableName,
          QUEUE_SUBSCRIBERS: jsonObjectText(
            queues.map(({ queue, subscriber }) => [queueArnStandIn(nameLength(queue)), subscriber.id]),
          ),
          DLQ_URLS: jsonObjectText(
            queues.map(({ deadLetterQueue, subscriber }) => [
              subscriber.id,
              queueUrlStandIn(nameLength(deadLetterQueue)),
            ]),
          ),
        } satisfies Partial<DeliveryVariables>,
      });

      for (const { queue, deadLetterQueue } of queues) {
        // Grants consuming the queue, ChangeMessageVisibility (the retry schedule) included.
        deliveryFunction.function.addEventSource(
          new SqsEventSource(queue, {
            batchSize: DELIVERY_BATCH_SIZE,
            reportBatchItemFailures: true,
            maxConcurrency: props.maxConcurrencyPerQueue ?? 2,
          }),
        );
        deadLetterQueue.grantSendMessages(deliveryFunction);
      }
      // The disabled-subscriber records (SUBSCRIBER#<id> / DISABLED).
      props.table.grant(deliveryFunction, 'dynamodb:GetItem', 'dynamodb:PutItem');
      props.secrets.grantRead(
        deliveryFunction,
        queues.flatMap(({ subscriber }) => subscriberSecrets(subscriber)),
      );
      functions.set(type, deliveryFunction);
    }
    this.functions = functions;
  }
}

/** A JSON object's text from entries whose keys may repeat (stand-ins of equal length), all counted. */
function jsonObjectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}
