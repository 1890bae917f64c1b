// The digest Lambda, invoked by its hourly schedule: builds each e-mail subscriber's digest of every period
// that has ended from the event log and publishes it to the event topic for that subscriber alone
// (shared/publish/sendDigests.ts), in numbered parts when it is too big for one message. A digest or part
// that could not be claimed or published is logged with its subscriber and fails the invocation (the
// function's error alarm) once every other one has gone; the next run sends it.
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SNSClient } from '@aws-sdk/client-sns';
import { type DigestRunReport, sendDigests } from '../../shared/publish/sendDigests.js';
import { DynamoDigestStore } from '../../shared/store/dynamo/dynamoDigestStore.js';
import { addInvocationContext, type InvocationContext } from '../shared/invocationContext.js';
import { parseDigestEnvironment } from './environment.js';
import { DigestPublishError } from './errors.js';

const environment = parseDigestEnvironment(process.env);
// Its service is POWERTOOLS_SERVICE_NAME, which the stack sets to SERVICE_NAMES.digest.
const logger = new Logger();
const store = new DynamoDigestStore({ client: new DynamoDBClient({}), tableName: environment.tableName });
const sns = new SNSClient({});

/** The schedule's event carries nothing the run needs: it builds what has ended by now. */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<DigestRunReport> {
  addInvocationContext(logger, context);
  const report = await sendDigests({
    config: environment.config,
    store,
    sns,
    topicArn: environment.topicArn,
    clock: Date.now,
  });
  for (const sent of report.sent) logger.info('digest sent', { ...sent });
  for (const failed of report.failed) logger.error('digest not sent; the next run retries it', { ...failed });
  logger.info('digest run', {
    examined: report.examined,
    sent: report.sent.length,
    failed: report.failed.length,
  });
  if (report.failed.length > 0)
    throw new DigestPublishError(
      report.failed.map(
        ({ digestId, subscriberId, organizationId }) =>
          digestId ?? `${subscriberId}'s digests of ${organizationId} (event log unread)`,
      ),
    );
  return report;
}
