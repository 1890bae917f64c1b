// The publisher: the state table's stream (the event log is the outbox) → the publisher Lambda → the event
// topic. Only inserted event items reach the function (the stream filter); a failing batch is split in two
// until the failing record is alone, retried a bounded number of times, then recorded on the failure queue
// (shard and sequence numbers; the events stay in the table for 14 days), whose depth raises an alarm.
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { PublisherVariables } from '../shared/contracts/functionEnvironments.js';
import { PUBLISHER_STREAM_FILTER_PATTERN } from '../shared/contracts/streamContract.js';
import { grantPublishToTopic } from './eventTopic.js';
import { topicArnStandIn } from './lambdaEnvironmentSize.js';
import type { NotifierConfig } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import { secureQueue } from './secureQueue.js';

export interface PublisherProps {
  /** The config: the publisher's bundle carries its organizations, for their highlight words. */
  readonly config: NotifierConfig;
  /** The state table, whose stream carries the event items. */
  readonly table: Table;
  /** The config's catch-up thresholds, as CATCH_UP_AFTER_SECONDS (catchUpAfterSecondsVariable). */
  readonly catchUpAfterSeconds: string;
  /** The event topic the events are published to. */
  readonly topic: Topic;
  /**
   * Stream records per invocation; the function publishes them 10 to a PublishBatch.
   * @default 100
   */
  readonly batchSize?: number;
  /**
   * Retries of a failing batch (after it has been split down to the failing record). Bounded, because the
   * stream is ordered: a record that cannot be published holds back every later event of its shard until
   * it is retried out.
   * @default 20
   */
  readonly retryAttempts?: number;
  /**
   * Records older than this go to the failure queue unpublished.
   * @default Duration.hours(24), the stream's own retention
   */
  readonly maxRecordAge?: Duration;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class Publisher extends Construct {
  readonly function: NotifierFunction;
  /** The stream's on-failure destination: what could not be published, by stream position. */
  readonly failureQueue: Queue;

  constructor(scope: Construct, id: string, props: PublisherProps) {
    super(scope, id);
    this.function = new NotifierFunction(this, 'Function', {
      handlerModule: 'publisher/handler.ts',
      serviceName: SERVICE_NAMES.publisher,
      description:
        'meal-order-notifier: publishes each new event of the state table stream to the event topic',
      timeout: Duration.minutes(1),
      ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
      ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
      // The e-mail body it composes flags notes with each organization's highlight words.
      config: props.config.publisherConfig(),
      environment: {
        TOPIC_ARN: props.topic.topicArn,
        CATCH_UP_AFTER_SECONDS: props.catchUpAfterSeconds,
      } satisfies PublisherVariables,
      environmentStandIns: {
        TOPIC_ARN: topicArnStandIn(props.topic),
      } satisfies Partial<PublisherVariables>,
    });
    grantPublishToTopic(props.topic, this.function);

    this.failureQueue = secureQueue(this, 'FailureQueue', { retentionPeriod: Duration.days(14) });
    this.function.function.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record the stream holds, so events written before the mapping existed still go out.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: props.batchSize ?? 100,
        bisectBatchOnError: true,
        retryAttempts: props.retryAttempts ?? 20,
        maxRecordAge: props.maxRecordAge ?? Duration.hours(24),
        // One batch per shard at a time keeps each organization's events in the order they were recorded.
        parallelizationFactor: 1,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.failureQueue),
        filters: [FilterCriteria.filter(PUBLISHER_STREAM_FILTER_PATTERN)],
      }),
    );

    Validations.of(this.failureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter destination (the stream event source mapping's on-failure destination), which the rule does not recognize; nothing consumes it, so it needs no DLQ of its own.",
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "dynamodb:ListStreams, which the DynamoDB event source grants, cannot be scoped to a resource; every other stream action is on the state table's stream ARN.",
    });
  }
}
