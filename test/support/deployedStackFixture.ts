// A "deployed stack" for the operator commands' tests: a throwaway state table on DynamoDB Local (the real
// thing), the config it was deployed with (the contract's example: webhook `automation`, Slack
// `kitchen-north`, e-mail `office`), and an outputs file in the shape `cdk deploy --outputs-file` writes,
// whose channel queue URLs SQS mocks (or an unreachable loopback port) answer. The AWS variables the commands read
// point the SDK at DynamoDB Local (the endpoint override docs/aws.md documents).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject, vi } from 'vitest';
import { channelOutputKeys, STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { DynamoSubscriberStatus } from '../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { exampleConfig } from './configFixtures.js';
import { createLocalStateTable, type LocalTable } from './dynamoLocal.js';

export const STACK_NAME = 'NotifierTest';
export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:NotifierTest-Events';
const QUEUE_BASE = 'https://sqs.us-east-1.amazonaws.com/123456789012';

/** One delivery queue and one dead-letter queue per channel type, shared by its subscribers. */
export const CHANNEL_QUEUE_URLS = {
  webhook: {
    queueUrl: `${QUEUE_BASE}/NotifierTest-DeliveriesWebhookQueue`,
    deadLetterQueueUrl: `${QUEUE_BASE}/NotifierTest-DeliveriesWebhookDeadLetterQueue`,
  },
  slack: {
    queueUrl: `${QUEUE_BASE}/NotifierTest-DeliveriesSlackQueue`,
    deadLetterQueueUrl: `${QUEUE_BASE}/NotifierTest-DeliveriesSlackDeadLetterQueue`,
  },
} as const;

/** Each subscriber's queues: its channel's (its messages there carry its id in the `subscriber` attribute). */
export const QUEUE_URLS = {
  automation: CHANNEL_QUEUE_URLS.webhook,
  'kitchen-north': CHANNEL_QUEUE_URLS.slack,
} as const;
export const FAILURE_QUEUE_URL = `${QUEUE_BASE}/NotifierTest-Publisher-FailureQueue`;
export const SUBSCRIPTION_DEAD_LETTER_QUEUE_URL = `${QUEUE_BASE}/NotifierTest-SubscriptionDeadLetters-Queue`;
export const ALARM_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:NotifierTest-alarms';

export interface DeployedStackFixture {
  table: LocalTable;
  store: DynamoStateStore;
  subscriberStatus: DynamoSubscriberStatus;
  dir: string;
  configPath: string;
  outputsPath: string;
  /** The variables a shell would set to reach DynamoDB Local (no real AWS credentials needed). */
  env: Record<string, string>;
  /** `--config … --stack … --stack-outputs …`, to put after the command's name. */
  stackArgs: string[];
  close(): Promise<void>;
}

/**
 * @param outputs what the outputs file holds beside the table's name; by default every queue of the
 *   example config, the event topic and the publisher's failure queue
 */
export async function deployedStackFixture(outputs?: Record<string, string>): Promise<DeployedStackFixture> {
  const table = await createLocalStateTable();
  const dir = await mkdtemp(join(tmpdir(), 'stack-'));
  const configPath = join(dir, 'notifier.json');
  const outputsPath = join(dir, 'cdk-outputs.json');
  await writeFile(configPath, JSON.stringify(exampleConfig()));
  await writeFile(
    outputsPath,
    JSON.stringify({
      [STACK_NAME]: {
        [STACK_OUTPUT_KEYS.stateTable]: table.tableName,
        ...(outputs ?? defaultOutputs()),
      },
    }),
  );
  const endpoint = inject('dynamoEndpoint');
  return {
    table,
    store: new DynamoStateStore({ client: table.client, tableName: table.tableName }),
    subscriberStatus: new DynamoSubscriberStatus({ client: table.client, tableName: table.tableName }),
    dir,
    configPath,
    outputsPath,
    env: {
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: endpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
    },
    stackArgs: ['--config', configPath, '--stack', STACK_NAME, '--stack-outputs', outputsPath],
    close: async () => {
      await table.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sets the fixture's variables for commands run in-process; `vi.unstubAllEnvs()` removes them. */
export function stubStackEnv(fixture: DeployedStackFixture): void {
  for (const [name, value] of Object.entries(fixture.env)) vi.stubEnv(name, value);
}

function defaultOutputs(): Record<string, string> {
  return {
    [STACK_OUTPUT_KEYS.eventTopic]: TOPIC_ARN,
    [STACK_OUTPUT_KEYS.publisherFailureQueue]: FAILURE_QUEUE_URL,
    [STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue]: SUBSCRIPTION_DEAD_LETTER_QUEUE_URL,
    [STACK_OUTPUT_KEYS.alarmTopic]: ALARM_TOPIC_ARN,
    [channelOutputKeys('webhook').queue]: CHANNEL_QUEUE_URLS.webhook.queueUrl,
    [channelOutputKeys('webhook').deadLetterQueue]: CHANNEL_QUEUE_URLS.webhook.deadLetterQueueUrl,
    [channelOutputKeys('slack').queue]: CHANNEL_QUEUE_URLS.slack.queueUrl,
    [channelOutputKeys('slack').deadLetterQueue]: CHANNEL_QUEUE_URLS.slack.deadLetterQueueUrl,
  };
}
