// The slack-delivery Lambda handler as AWS runs it: the incoming-webhook URL from Secrets Manager and the
// queues mocked (aws-sdk-client-mock), disabled subscribers in DynamoDB Local, and a Slack-like endpoint on
// loopback answering as Slack does. Each test posts to its own webhook URL, so Slack pacing (1 message/s
// per URL) never makes one test wait on another.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../../shared/config/configSchema.js';
import { DELIVERY_OUTCOME_MESSAGES } from '../../../shared/contracts/deliveryLogLines.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { DynamoSubscriberStatus } from '../../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import {
  DELIVERY_QUEUE_URL,
  deadLetterQueueUrlOf,
  ORGANIZATION_CONFIG,
  queueOf,
  stubDeliveryEnvironment,
  subscriberSecretShards,
} from '../../support/deliveryFunctionEnv.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { sqsEventRecord } from '../../support/lambdaRecords.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { SLACK_ANSWERS, type SlackReceiver, startSlackReceiver } from '../../support/slackReceiver.js';

const KITCHENS = ['kitchen-ok', 'kitchen-busy', 'kitchen-archived', 'kitchen-typo'] as const;
const sqs = mockClient(SQSClient);
const secretsManager = mockClient(SecretsManagerClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
  secretsManager.restore();
});
let slack: SlackReceiver;
let table: LocalTable;
let handlerModule: typeof import('../../../functions/slack-delivery/handler.js');
let output: CapturedOutput;

function secretName(kitchen: string): string {
  return `${kitchen.toUpperCase().replace(/-/g, '_')}_SLACK_URL`;
}

function config(): ConfigInput {
  return {
    api: { baseUrl: 'https://example.test/api/v1/admin' },
    // Its own words: the function must flag with them, not with the defaults.
    organizations: [{ ...ORGANIZATION_CONFIG, highlightWords: ['grandma'] }],
    subscribers: KITCHENS.map((id) => ({ id, type: 'slack' as const, webhookUrl: { env: secretName(id) } })),
  };
}

beforeAll(async () => {
  slack = await startSlackReceiver();
  table = await createLocalStateTable();
  stubDeliveryEnvironment(config(), table.tableName);
  handlerModule = await import('../../../functions/slack-delivery/handler.js');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await slack.close();
  await table.drop();
});

beforeEach(() => {
  output = captureOutput();
  slack.received.splice(0);
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
  sqs.on(SendMessageCommand).resolves({ MessageId: 'dlq-message' });
  // Every kitchen's URL in its shard of the subscriber secrets, as put-secrets leaves them.
  const urls = Object.fromEntries(
    KITCHENS.map((kitchen) => [
      secretName(kitchen),
      kitchen === 'kitchen-typo' ? 'hooks.slack.com/services/T0/B0/no-scheme' : slack.webhookUrl(kitchen),
    ]),
  );
  for (const [secretId, json] of subscriberSecretShards(urls)) {
    secretsManager.on(GetSecretValueCommand, { SecretId: secretId }).resolves({ SecretString: json });
  }
});

afterEach(() => {
  const logged = output.text();
  sqs.reset();
  secretsManager.reset();
  vi.restoreAllMocks();
  // The webhook URL is the credential: no log line or metric may carry it, nor a parent's contact details.
  for (const kitchen of KITCHENS) expect(logged).not.toContain(new URL(slack.webhookUrl(kitchen)).pathname);
  expect(logged).not.toContain('no-scheme');
  expect(logged).not.toContain('parent@example.test');
});

function freshEvent(): OrderEvent {
  return makeOrderEvent({ type: 'order.canceled', detectedAt: new Date(Date.now() - 2_000).toISOString() });
}

describe('slack-delivery handler', () => {
  it('posts the Block Kit message without contact details to the subscriber’s webhook and deletes the message', async () => {
    const event = freshEvent();

    const response = await handlerModule.handler({ Records: [sqsEventRecord(event, queueOf('kitchen-ok'))] });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(slack.received).toHaveLength(1);
    expect(slack.received[0]?.path).toBe(new URL(slack.webhookUrl('kitchen-ok')).pathname);
    const payload = JSON.stringify(slack.received[0]?.payload);
    expect(payload).toContain(event.data.order.reference);
    expect(payload).toContain('"blocks"');
    expect(payload).not.toContain('parent@example.test');
    expect(sqs).not.toHaveReceivedAnyCommand();
    // Counted by its log line, which the dashboard's widgets query: no custom metric.
    expect(output.emf()).toEqual([]);
    const delivered = output
      .logLines()
      .filter((line) => line.message === DELIVERY_OUTCOME_MESSAGES.delivered);
    expect(delivered).toEqual([
      expect.objectContaining({
        subscriber: 'kitchen-ok',
        eventId: event.id,
        attempts: 1,
      }),
    ]);
    expect(delivered[0]?.latencyMs).toBeGreaterThanOrEqual(2_000);
  });

  it("flags the order's notes with the words of its organization, from the function's config", async () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      detectedAt: new Date(Date.now() - 2_000).toISOString(),
      order: { notes: 'Picked up by grandma', items: [makeOrderItem({ name: 'Soup', notes: 'no egg' })] },
    });

    await handlerModule.handler({ Records: [sqsEventRecord(event, queueOf('kitchen-ok'))] });

    const payload = JSON.stringify(slack.received.at(-1)?.payload);
    expect(payload).toContain('*Notes*\\n🚨 *Order:* Picked up by grandma\\n• *Soup:* no egg');
  });

  it('hides a message Slack rate-limited for as long as Retry-After says, and keeps it', async () => {
    slack.script(SLACK_ANSWERS.rateLimited(30));
    const record = sqsEventRecord(freshEvent(), queueOf('kitchen-busy'), 1);

    const response = await handlerModule.handler({ Records: [record] });

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
    expect(sqs).toHaveReceivedCommandExactlyOnceWith(ChangeMessageVisibilityCommand, {
      QueueUrl: DELIVERY_QUEUE_URL,
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: 30,
    });
    expect(output.logLines().filter((line) => line.message === DELIVERY_OUTCOME_MESSAGES.deferred)).toEqual([
      expect.objectContaining({ subscriber: 'kitchen-busy', attempts: 1, retryInSeconds: 30 }),
    ]);
    expect(output.emf()).toEqual([]);
  });

  it('disables a subscriber whose channel is archived, and dead-letters its later messages without a post', async () => {
    slack.script(SLACK_ANSWERS.channelIsArchived);
    const first = sqsEventRecord(freshEvent(), queueOf('kitchen-archived'));

    expect(await handlerModule.handler({ Records: [first] })).toEqual({ batchItemFailures: [] });
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('kitchen-archived'),
      MessageBody: first.body,
      MessageAttributes: expect.objectContaining({
        kind: { DataType: 'String', StringValue: 'gone' },
        reason: { DataType: 'String', StringValue: expect.stringContaining('channel_is_archived') },
      }),
    });
    const status = new DynamoSubscriberStatus({ client: table.client, tableName: table.tableName });
    expect(await status.isSubscriberDisabled('kitchen-archived')).toBe(true);

    const later = sqsEventRecord(freshEvent(), queueOf('kitchen-archived'));
    expect(await handlerModule.handler({ Records: [later] })).toEqual({ batchItemFailures: [] });
    expect(slack.received).toHaveLength(1);
    expect(sqs).toHaveReceivedNthCommandWith(SendMessageCommand, 2, {
      MessageBody: later.body,
      MessageAttributes: expect.objectContaining({
        kind: { DataType: 'String', StringValue: 'subscriber_disabled' },
      }),
    });
  });

  it('retries, rather than disabling the subscriber, while its secret does not hold a URL', async () => {
    const record = sqsEventRecord(freshEvent(), queueOf('kitchen-typo'));

    const response = await handlerModule.handler({ Records: [record] });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { VisibilityTimeout: 5 });
    expect(output.text()).toContain('KITCHEN_TYPO_SLACK_URL does not hold a Slack incoming-webhook URL');
    const status = new DynamoSubscriberStatus({ client: table.client, tableName: table.tableName });
    expect(await status.isSubscriberDisabled('kitchen-typo')).toBe(false);
  });
});
