// The environment the CDK stack gives a delivery function, for tests that import the real handler:
// one queue pair per subscriber (named `<id>-queue` / `<id>-dlq`), DynamoDB Local for the state table, and
// placeholder AWS credentials (SQS and Secrets Manager are mocked with aws-sdk-client-mock).
import { inject, vi } from 'vitest';
import type { ConfigInput } from '../../shared/config/configSchema.js';
import { queueArn, queueUrl } from './lambdaRecords.js';

export const SECRETS_PREFIX = 'meal-order-notifier/';

export function queueOf(subscriberId: string): string {
  return `${subscriberId}-queue`;
}

export function deadLetterQueueUrlOf(subscriberId: string): string {
  return queueUrl(`${subscriberId}-dlq`);
}

/** Stubs every variable the function reads; `vi.unstubAllEnvs()` undoes it. */
export function stubDeliveryEnvironment(config: ConfigInput, tableName: string): void {
  const ids = (config.subscribers ?? []).map(({ id }) => id);
  vi.stubEnv('STATE_TABLE_NAME', tableName);
  vi.stubEnv('NOTIFIER_CONFIG', JSON.stringify(config));
  vi.stubEnv('SECRETS_PREFIX', SECRETS_PREFIX);
  vi.stubEnv(
    'QUEUE_SUBSCRIBERS',
    JSON.stringify(Object.fromEntries(ids.map((id) => [queueArn(queueOf(id)), id]))),
  );
  vi.stubEnv('DLQ_URLS', JSON.stringify(Object.fromEntries(ids.map((id) => [id, deadLetterQueueUrlOf(id)]))));
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', inject('dynamoEndpoint'));
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // Logged at INFO and captured, so tests can check that no secret or contact detail reaches a log line.
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
}

/** An organization block the config requires; delivery never polls it. */
export const ORGANIZATION_CONFIG = {
  id: '0e9a0000-0000-4000-8000-00000000000a',
  name: 'North School',
  token: { env: 'NORTH_TOKEN' },
  timeZone: 'Europe/Lisbon',
};
