// The poller Lambda: each trigger, an organization's minute schedule (the watchdog) or a tick from the tick
// queue, polls that organization when it is due over DynamoDB and sends the tick of its next cycle
// (pollOnTrigger.ts); each cycle is reported as a structured log line and EMF metrics.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse } from 'aws-lambda';
import { SecretsManagerJsonSecretResolver } from '../../shared/config/secretsManagerJsonSecretResolver.js';
import { METRICS_NAMESPACE, SERVICE_NAMES } from '../../shared/contracts/customMetrics.js';
import { putSecretsCommand, tokenShardsOf } from '../../shared/contracts/secretShards.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { addInvocationContext, type InvocationContext } from '../shared/invocationContext.js';
import { TickQueue } from '../shared/tickQueue.js';
import { parsePollerEnvironment } from './environment.js';
import { UnknownOrganizationError } from './errors.js';
import { OrganizationClients } from './organizationClients.js';
import { parsePollerEvent } from './pollerEvent.js';
import { pollOnTrigger, type TriggerDependencies, type TriggerResult } from './pollOnTrigger.js';

const environment = parsePollerEnvironment(process.env);
// The Logger's service is POWERTOOLS_SERVICE_NAME, which the stack sets to SERVICE_NAMES.poller.
const logger = new Logger();
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.poller });
const store = new DynamoStateStore({
  client: new DynamoDBClient({}),
  tableName: environment.tableName,
  warn: (line) => logger.warn(line),
});
// Every organization's token, by its reference's name, in its shard of the tokens secrets
// (infra/notifierSecrets.ts), which the config's token names decide as they did for the stack.
const tokenShards = tokenShardsOf(environment.config.organizations.map(({ token }) => token.env));
const tokensSecretOf = (organization: { token: { env: string } }) =>
  `${environment.secretsPrefix}${tokenShards.secretOf(organization.token.env)}`;
const clients = new OrganizationClients(
  environment.config,
  new SecretsManagerJsonSecretResolver({
    secretName: (ref) => tokensSecretOf({ token: ref }),
    fix: putSecretsCommand(environment.secretsPrefix),
  }),
  store.budgetCounters,
);
const ticks = new TickQueue(environment.tickQueueUrl, new SQSClient({}));

/**
 * A schedule's invocation answers with what its trigger did and throws what stopped it (the poller-errors
 * alarm); a token not put yet stops nothing, it makes a failed cycle (pollOnTrigger.ts). A batch of ticks
 * never fails: a tick that could not be handled is logged and dropped, not retried, since the schedule
 * restarts the chain within its interval anyway.
 */
export async function handler(
  event: unknown,
  context: InvocationContext & { awsRequestId: string },
): Promise<TriggerResult | SQSBatchResponse> {
  addInvocationContext(logger, context);
  const parsed = parsePollerEvent(event);
  const deps = (runId: string): TriggerDependencies => ({
    config: environment.config,
    awsDefaultIntervals: environment.awsDefaultIntervals,
    catchUpAfter: environment.catchUpAfterSeconds.map((seconds) => seconds * 1000),
    clientFor: (organization) => clients.clientFor(organization),
    tokenIdentityOf: (organization) => clients.tokenIdentityOf(organization),
    tokensSecretOf,
    store,
    ticks,
    logger,
    metrics,
    clock: Date.now,
    runId,
  });
  if (parsed.kind === 'schedule') return pollOnTrigger(parsed.trigger, deps(context.awsRequestId));

  for (const tick of parsed.malformed) logger.error('tick dropped: not a tick', { ...tick });
  for (const trigger of parsed.triggers) {
    try {
      await pollOnTrigger(trigger, deps(`${context.awsRequestId}/${trigger.messageId}`));
    } catch (error) {
      const details = { organization: trigger.organizationId, messageId: trigger.messageId };
      // A tick queued before a deployment that removed its organization: expected, no stack trace needed.
      if (error instanceof UnknownOrganizationError) {
        logger.warn('tick dropped: organization not polled', { ...details, reason: error.message });
      } else logger.error('tick failed; the schedule restarts the chain', { ...details, error });
    }
  }
  return { batchItemFailures: [] };
}
