// Builds a delivery Lambda handler (Slack or webhook) for one delivery channel: the environment parsed at
// call time (module import, in the handlers), AWS clients and senders built once per container, and each
// SQS batch run through Powertools' BatchProcessor so failed records come back as batchItemFailures.
//
// Records are sent one after another: a batch comes from one queue, so one subscriber, whose receiver gets
// its events in order, whose Slack webhook is paced at 1 message/s anyway, and whose later messages go
// straight to the DLQ once it answers "gone". A batch whose every record failed is answered, not thrown:
// a receiver being down is expected weather, not a function error (nor a Lambda error alarm).
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { subscriberPathById } from '../../shared/config/secretReferences.js';
import { SecretsManagerSecretResolver } from '../../shared/config/secretsManagerSecretResolver.js';
import { METRICS_NAMESPACE } from '../../shared/contracts/customMetrics.js';
import type { DeliverySubscriber } from '../../shared/contracts/deliveryQueueContract.js';
import type { ClosableSender } from '../../shared/delivery/deliveryOutcome.js';
import { type HighlightWordsOf, highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import type { SenderTuning } from '../../shared/delivery/senderTuning.js';
import { sendToDeadLetterQueue } from '../../shared/delivery/sqs/deadLetters.js';
import { DeliveryTally } from '../../shared/delivery/sqs/deliveryMetrics.js';
import { DeliveryDeferredError } from '../../shared/delivery/sqs/errors.js';
import {
  deliverSqsRecord,
  type QueueActions,
  type SqsDeliveryDependencies,
} from '../../shared/delivery/sqs/sqsDelivery.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';
import { DynamoSubscriberStatus } from '../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { parseDeliveryEnvironment } from './deliveryEnvironment.js';
import { addInvocationContext, type InvocationContext } from './invocationContext.js';
import { queueUrlFromArn } from './queueUrl.js';

export type SqsDeliveryHandler = (
  event: SQSEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'> & InvocationContext,
) => Promise<SQSBatchResponse>;

/** The shared builder of the one subscriber type a function delivers (buildWebhookSender, buildSlackSender). */
export type ChannelSenderBuilder<S extends DeliverySubscriber> = (
  subscriber: S,
  secretValues: readonly string[],
  tuning: SenderTuning,
  highlightWords: HighlightWordsOf,
) => ClosableSender;

/**
 * @param functionName e.g. `webhook-delivery`: names the function in environment errors, logs and metrics
 * @throws LambdaEnvironmentError, ConfigError: a misconfigured function fails at its first cold start
 */
export function createSqsDeliveryHandler<S extends DeliverySubscriber>(
  functionName: string,
  subscriberType: S['type'],
  build: ChannelSenderBuilder<S>,
): SqsDeliveryHandler {
  const environment = parseDeliveryEnvironment<S>(functionName, subscriberType, process.env);
  // The Logger's service is POWERTOOLS_SERVICE_NAME, which the stack sets to the same name.
  const logger = new Logger();
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: functionName });
  const sqs = new SQSClient({});
  const status = new DynamoSubscriberStatus({
    client: new DynamoDBClient({}),
    tableName: environment.tableName,
  });
  const senders = new SubscriberSenders({
    subscribers: [...environment.subscriberOfQueue.values()],
    secrets: new SecretsManagerSecretResolver({ prefix: environment.secretsPrefix }),
    // The environment check made every subscriber of this function's queues of its type.
    build: (subscriber, secretValues, _smtp, tuning, highlightWords) =>
      build(subscriber as S, secretValues, tuning, highlightWords),
    // The bundle's config has every organization: a Slack message flags notes with the words of its own.
    highlightWords: highlightWordsOf(environment.config.organizations),
    // The bundle holds this function's type of subscriber only: an index would point at another in the file.
    subscriberPath: subscriberPathById,
    onWarning: (message) => logger.warn(message),
  });
  const queue: QueueActions = {
    changeVisibility: async (queueArn, receiptHandle, seconds) => {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrlFromArn(queueArn),
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
    deadLetter: (queueUrl, body, letter) => sendToDeadLetterQueue(sqs, queueUrl, body, letter),
  };
  const processor = new BatchProcessor(EventType.SQS);

  return async (event, context) => {
    addInvocationContext(logger, context);
    const tally = new DeliveryTally();
    const deps: SqsDeliveryDependencies<S> = {
      subscriberOfQueue: environment.subscriberOfQueue,
      deadLetterQueueUrl: environment.deadLetterQueueUrl,
      senders,
      status,
      queue,
      tally,
      logger,
      clock: Date.now,
      random: Math.random,
      ...(context ? { remainingTimeMs: () => context.getRemainingTimeInMillis() } : {}),
    };
    const recordHandler = async (record: SQSRecord): Promise<void> => {
      try {
        await deliverSqsRecord(record, deps);
      } catch (error) {
        // Deferred deliveries were logged with their outcome; anything else is logged here, once.
        if (!(error instanceof DeliveryDeferredError)) {
          logger.error('message left on its queue', { messageId: record.messageId, error: describe(error) });
        }
        throw error;
      }
    };
    try {
      return await processPartialResponse(event, recordHandler, processor, {
        processInParallel: false,
        throwOnFullBatchFailure: false,
      });
    } finally {
      tally.publish(metrics);
    }
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
