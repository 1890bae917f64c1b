// The environment the CDK stack gives a delivery function, for tests that import the real handler: the
// channel's delivery queue and dead-letter queue (a record for subscriber `<id>` comes "from" `<id>-queue`,
// sqsEventRecord naming it in the `subscriber` attribute), DynamoDB Local for the state table, and
// placeholder AWS credentials (SQS and Secrets Manager are mocked with aws-sdk-client-mock).
import { inject, vi } from 'vitest';
import type { ConfigInput } from '../../shared/config/configSchema.js';
import { secretShards, shardSecret } from '../../shared/contracts/secretShards.js';
import { queueUrl } from './lambdaRecords.js';

export const SECRETS_PREFIX = 'meal-order-notifier/';
/** Two, so a test reads each secret from the shard its name decides, not from the only one. */
export const SUBSCRIBER_SECRET_SHARDS = 2;

/**
 * The subscriber secrets' shards as `put-secrets` leaves them for `values` (by reference name): each full
 * secret name and its JSON object, every shard present, those holding none of them `{}`.
 */
export function subscriberSecretShards(values: Record<string, string>): Map<string, string> {
  const shards = secretShards('subscriber-secrets', SUBSCRIBER_SECRET_SHARDS);
  const objects = Array.from({ length: SUBSCRIBER_SECRET_SHARDS }, () => ({}) as Record<string, string>);
  for (const [name, value] of Object.entries(values)) {
    const shard = objects[shards.shardOf(name)];
    if (shard) shard[name] = value;
  }
  return new Map(
    objects.map((object, index) => [
      `${SECRETS_PREFIX}${shardSecret('subscriber-secrets', index)}`,
      JSON.stringify(object),
    ]),
  );
}

/** The full name of the subscriber secrets' shard holding `name`. */
export function subscriberSecretShardOf(name: string): string {
  return `${SECRETS_PREFIX}${secretShards('subscriber-secrets', SUBSCRIBER_SECRET_SHARDS).secretOf(name)}`;
}

export function queueOf(subscriberId: string): string {
  return `${subscriberId}-queue`;
}

/** The channel's delivery queue, every subscriber's. */
export const DELIVERY_QUEUE_URL = queueUrl('deliveries');

/** The channel's dead-letter queue, every subscriber's: each letter names its subscriber. */
export function deadLetterQueueUrlOf(_subscriberId: string): string {
  return queueUrl('dead-letters');
}

/** Stubs every variable the function reads; `vi.unstubAllEnvs()` undoes it. */
export function stubDeliveryEnvironment(config: ConfigInput, tableName: string): void {
  vi.stubEnv('STATE_TABLE_NAME', tableName);
  vi.stubEnv('NOTIFIER_CONFIG', JSON.stringify(config));
  vi.stubEnv('SECRETS_PREFIX', SECRETS_PREFIX);
  vi.stubEnv('SUBSCRIBER_SECRET_SHARDS', String(SUBSCRIBER_SECRET_SHARDS));
  vi.stubEnv('DELIVERY_QUEUE_URL', DELIVERY_QUEUE_URL);
  vi.stubEnv('DEAD_LETTER_QUEUE_URL', deadLetterQueueUrlOf(''));
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
