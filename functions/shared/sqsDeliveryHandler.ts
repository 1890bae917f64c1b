// Builds a delivery Lambda handler (Slack or webhook) for one delivery channel: the environment parsed at
// call time (module import, in the handlers), AWS clients and senders built once per container, and each
// SQS batch run through Powertools' BatchProcessor so failed records come back as batchItemFailures.
//
// A batch of the channel's one queue mixes subscribers. Different subscribers' records run at once, so a
// receiver that is down or slow (up to the 15 s send timeout per record) delays no other; one subscriber's
// records run one after another, in batch order: its receiver gets its events in order, its Slack webhook is
// paced at 1 message/s anyway, and its later messages go straight to the DLQ once it answers "gone".
// Intake messages (not split yet) each run by themselves. A batch whose every record failed is answered,
// not thrown: a receiver being down is expected weather, not a function error (nor a Lambda error alarm).
//
// The Slack function runs the kitchen's board for a Slack app subscriber with the state table's message
// map (DynamoBoardMessages): two events of one order handled at once, by two invocations, never post it
// twice, because a post is claimed first by a conditional put (`attribute_not_exists`) and only the
// invocation whose put succeeded posts; the other finds the claim and edits, or retries shortly while the
// claim is fresh. Before an invocation returns, the board edits its coalescing put off are made if they
// fall due within the coalescing gap (settle); later ones stay marked for the next invocation.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { subscriberPathById } from '../../shared/config/secretReferences.js';
import { SecretsManagerJsonSecretResolver } from '../../shared/config/secretsManagerJsonSecretResolver.js';
import { METRICS_NAMESPACE } from '../../shared/contracts/customMetrics.js';
import {
  ATTEMPT_TIME_RESERVE_MS,
  type DeliverySubscriber,
} from '../../shared/contracts/deliveryQueueContract.js';
import { putSecretsCommand, secretShards } from '../../shared/contracts/secretShards.js';
import type { ClosableSender } from '../../shared/delivery/deliveryOutcome.js';
import { type HighlightWordsOf, highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import type { SenderTuning } from '../../shared/delivery/senderTuning.js';
import { sendToDeadLetterQueue } from '../../shared/delivery/sqs/deadLetters.js';
import { DeliveryDeferredError } from '../../shared/delivery/sqs/errors.js';
import { PausedCount } from '../../shared/delivery/sqs/pausedCount.js';
import {
  deliverSqsRecord,
  type QueueActions,
  type QueuedDelivery,
  type SqsDeliveryDependencies,
  subscriberOfRecord,
} from '../../shared/delivery/sqs/sqsDelivery.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';
import { DynamoBoardMessages } from '../../shared/store/dynamo/dynamoBoardMessages.js';
import { DynamoSubscriberStatus } from '../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { parseDeliveryEnvironment } from './deliveryEnvironment.js';
import { addInvocationContext, type InvocationContext } from './invocationContext.js';

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
  // The paused alarm's metric, and no other: the dashboard reads the rest from the outcome log lines.
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: functionName });
  const sqs = new SQSClient({});
  const dynamo = new DynamoDBClient({});
  const status = new DynamoSubscriberStatus({ client: dynamo, tableName: environment.tableName });
  // Each subscriber secret in its shard of the subscriber secrets (infra/notifierSecrets.ts), laid out over
  // every Slack and webhook subscriber's names: the stack says how many shards, the name which one.
  const shards = secretShards('subscriber-secrets', environment.subscriberSecretShards);
  const senders = new SubscriberSenders({
    subscribers: environment.subscribers,
    // The Slack app subscribers' boards: the state table's message map, shared by every invocation.
    tuning: { boardMessages: new DynamoBoardMessages({ client: dynamo, tableName: environment.tableName }) },
    secrets: new SecretsManagerJsonSecretResolver({
      secretName: (ref) => `${environment.secretsPrefix}${shards.secretOf(ref.env)}`,
      fix: putSecretsCommand(environment.secretsPrefix),
    }),
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
    changeVisibility: async (receiptHandle, seconds) => {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: environment.deliveryQueueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
    deadLetter: (body, letter) => sendToDeadLetterQueue(sqs, environment.deadLetterQueueUrl, body, letter),
    send: (messages) => sendDeliveries(sqs, environment.deliveryQueueUrl, messages),
  };
  const processor = new BatchProcessor(EventType.SQS);

  return async (event, context) => {
    addInvocationContext(logger, context);
    const paused = new PausedCount();
    const deps: SqsDeliveryDependencies<S> = {
      subscribers: environment.subscribers,
      senders,
      status,
      queue,
      paused,
      logger,
      clock: Date.now,
      random: Math.random,
      ...(context ? { remainingTimeMs: () => context.getRemainingTimeInMillis() } : {}),
    };
    // One chain per subscriber: its records in turn, the chains at once.
    const chains = new Map<string, Promise<unknown>>();
    const inTurn = (key: string, step: () => Promise<void>): Promise<void> => {
      const run = (chains.get(key) ?? Promise.resolve()).then(step, step);
      chains.set(
        key,
        run.catch(() => {}),
      );
      return run;
    };
    const recordHandler = async (record: SQSRecord): Promise<void> => {
      try {
        await inTurn(subscriberOfRecord(record) ?? `intake ${record.messageId}`, () =>
          deliverSqsRecord(record, deps),
        );
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
        processInParallel: true,
        throwOnFullBatchFailure: false,
      });
    } finally {
      // The coalesced board edits due within the gap, while time is left; the rest wait for the next call.
      const remaining = context ? context.getRemainingTimeInMillis() - ATTEMPT_TIME_RESERVE_MS : 10_000;
      await senders
        .settle(Date.now() + Math.min(BOARD_SETTLE_MS, Math.max(0, remaining)))
        .catch((error: unknown) => logger.warn('board edits left for later', { error: describe(error) }));
      paused.publish(metrics);
    }
  };
}

/** Longest an invocation waits for the board edits its coalescing put off: a little over the gap (3 s). */
const BOARD_SETTLE_MS = 5_000;
/** SendMessageBatch takes 10 entries. */
const SQS_BATCH_MAX_ENTRIES = 10;

/**
 * Puts each message on the delivery queue in its subscriber's message group (fair queue tenant).
 * @throws naming the entries SQS did not take, so the record that asked stays on its queue
 */
async function sendDeliveries(
  sqs: SQSClient,
  queueUrl: string,
  messages: readonly QueuedDelivery[],
): Promise<void> {
  for (let start = 0; start < messages.length; start += SQS_BATCH_MAX_ENTRIES) {
    const chunk = messages.slice(start, start + SQS_BATCH_MAX_ENTRIES);
    const entries: SendMessageBatchRequestEntry[] = chunk.map((message, index) => ({
      Id: `m${index}`,
      MessageBody: message.body,
      MessageGroupId: message.subscriberId,
      MessageAttributes: message.attributes,
      ...(message.delaySeconds === undefined ? {} : { DelaySeconds: message.delaySeconds }),
    }));
    const answer = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    const taken = new Set((answer.Successful ?? []).map(({ Id }) => Id));
    const refused = entries.filter(({ Id }) => !taken.has(Id));
    if (refused.length > 0) {
      const names = refused.map(({ Id }) => chunk[Number(Id?.slice(1))]?.subscriberId ?? Id).join(', ');
      const first = answer.Failed?.[0];
      throw new Error(
        `the delivery queue did not take the messages for ${names}${first ? `: ${first.Code} ${first.Message ?? ''}`.trimEnd() : ''}`,
      );
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
