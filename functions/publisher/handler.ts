// The publisher Lambda: the event log's DynamoDB Stream → the SNS topic, up to 10 events per PublishBatch,
// with the message attributes subscription filter policies read and a body per protocol. It answers with
// the stream records that failed (`batchItemFailures`, by SequenceNumber), so the stream retries from the
// first of them instead of the whole batch. SNS trouble is reported that way rather than thrown: the
// stream's bounded retries and on-failure destination, set by the stack, take it from there.
import { Logger } from '@aws-lambda-powertools/logger';
import { SNSClient } from '@aws-sdk/client-sns';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import { publishEvents } from '../../shared/publish/publishEvents.js';
import { readStreamBatch } from '../../shared/publish/streamEvents.js';
import { addInvocationContext, type InvocationContext } from '../shared/invocationContext.js';
import { parsePublisherEnvironment } from './environment.js';

const environment = parsePublisherEnvironment(process.env);
// Each organization's words flag the notes of the e-mail body, as the local SMTP sender flags them.
const highlightWords = highlightWordsOf(environment.config.organizations);
// The Logger's service is POWERTOOLS_SERVICE_NAME, which the stack sets to SERVICE_NAMES.publisher.
const logger = new Logger();
const sns = new SNSClient({});

export async function handler(
  event: DynamoDBStreamEvent,
  context?: InvocationContext,
): Promise<DynamoDBBatchResponse> {
  addInvocationContext(logger, context);
  const batch = readStreamBatch(event.Records ?? []);
  const report = await publishEvents(sns, environment.topicArn, batch.toPublish, highlightWords, {
    catchUpAfterSeconds: environment.catchUpAfterSeconds,
  });
  for (const held of batch.held) logger.error('event item not published', { ...held });
  for (const failure of report.failures) logger.warn('event not published', { ...failure });
  const failed = [...batch.held, ...report.failures];
  // Counted in this line, not as custom metrics: no alarm or widget read them, and each cost $0.30 a month.
  logger.info('stream batch', {
    records: event.Records?.length ?? 0,
    published: report.published,
    failed: failed.length,
    ignored: batch.ignored,
  });
  return { batchItemFailures: failed.map(({ sequenceNumber }) => ({ itemIdentifier: sequenceNumber })) };
}
