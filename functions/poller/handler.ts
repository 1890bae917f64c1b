// The poller Lambda: one EventBridge Scheduler invocation polls one organization with the shared
// pollOrganization use case over DynamoDB, and reports the cycle as a structured log line and EMF metrics.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { SecretsManagerSecretResolver } from '../../shared/config/secretsManagerSecretResolver.js';
import { pollOrganization } from '../../shared/poll/pollOrganization.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { parsePollerEnvironment } from './environment.js';
import { InvalidPollerEventError, UnknownOrganizationError } from './errors.js';
import { OrganizationClients } from './organizationClients.js';
import { type PollSummary, publishPollMetrics, summarizePoll } from './pollSummary.js';

const environment = parsePollerEnvironment(process.env);
const logger = new Logger({ serviceName: 'meal-order-notifier-poller' });
const metrics = new Metrics({ namespace: 'MealOrderNotifier', serviceName: 'poller' });
const store = new DynamoStateStore({ client: new DynamoDBClient({}), tableName: environment.tableName });
const clients = new OrganizationClients(
  environment.config.api,
  new SecretsManagerSecretResolver({ prefix: environment.secretsPrefix }),
  store.budgetCounters,
);

const PollerEventSchema = z.object({ organizationId: z.string().min(1) });

export async function handler(event: unknown, context: Pick<Context, 'awsRequestId'>): Promise<PollSummary> {
  const parsed = PollerEventSchema.safeParse(event);
  if (!parsed.success) throw new InvalidPollerEventError();
  const organization = environment.config.organizations.find(({ id }) => id === parsed.data.organizationId);
  if (!organization) throw new UnknownOrganizationError(parsed.data.organizationId);
  const report = await pollOrganization(organization, {
    api: await clients.clientFor(organization),
    store,
    clock: Date.now,
    runId: context.awsRequestId,
    baseUrl: environment.config.api.baseUrl,
  });
  const summary = summarizePoll(report);
  // API failures are expected weather, not function errors: they go to the log and the PollSucceeded metric.
  if (report.ok) logger.info('poll cycle', { ...summary });
  else logger.warn('poll cycle failed', { ...summary });
  publishPollMetrics(metrics, report);
  return summary;
}
