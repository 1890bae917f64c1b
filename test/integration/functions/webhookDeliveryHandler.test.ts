// The webhook-delivery Lambda handler as AWS runs it: environment parsed at import, the signing secret from
// its shard of the subscriber secrets in Secrets Manager and the queues mocked (aws-sdk-client-mock: call shapes and errors), disabled subscribers
// in DynamoDB Local, and a real receiver on loopback that verifies every signature with `standardwebhooks`.
import type { ServerResponse } from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../../shared/config/configSchema.js';
import type { DeliveryOutcomeMessage } from '../../../shared/contracts/deliveryLogLines.js';
import {
  MAX_RECEIVE_COUNT,
  MAX_RETRY_VISIBILITY_SECONDS,
} from '../../../shared/contracts/deliveryQueueContract.js';
import { RETRY_SCHEDULE_MS } from '../../../shared/delivery/retrySchedule.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { DynamoSubscriberStatus } from '../../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import {
  DELIVERY_QUEUE_URL,
  deadLetterQueueUrlOf,
  ORGANIZATION_CONFIG,
  queueOf,
  stubDeliveryEnvironment,
  subscriberSecretShardOf,
  subscriberSecretShards,
} from '../../support/deliveryFunctionEnv.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { sqsEventRecord, sqsRecord } from '../../support/lambdaRecords.js';
import {
  makeWebhookSecret,
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhookReceiver.js';

const SECRET = makeWebhookSecret();
const sqs = mockClient(SQSClient);
const secretsManager = mockClient(SecretsManagerClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
  secretsManager.restore();
});
let receiver: WebhookReceiver;
let table: LocalTable;
let handlerModule: typeof import('../../../functions/webhook-delivery/handler.js');
let output: CapturedOutput;
/** How the receiver answers the current test. */
let answer: (request: ReceivedWebhook, res: ServerResponse) => void;

function config(origin: string): ConfigInput {
  const hook = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    type: 'webhook' as const,
    url: `${origin}/hooks/${id}`,
    secret: { env: 'HOOKS_SECRET' },
    ...extra,
  });
  return {
    api: { baseUrl: 'https://example.test/api/v1/admin' },
    organizations: [ORGANIZATION_CONFIG],
    subscribers: [
      hook('hooks'),
      hook('hooks-full', { includeContactDetails: true }),
      hook('hooks-gone'),
      hook('hooks-off', { enabled: false }),
      hook('hooks-unset', { secret: { env: 'UNSET_SECRET' } }),
    ],
  };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver({
    secrets: [SECRET],
    respond: (request, res) => answer(request, res),
  });
  table = await createLocalStateTable();
  stubDeliveryEnvironment(config(receiver.origin), table.tableName);
  handlerModule = await import('../../../functions/webhook-delivery/handler.js');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
  await table.drop();
});

beforeEach(() => {
  output = captureOutput();
  receiver.received.splice(0);
  answer = (_request, res) => res.writeHead(204).end();
  // No jitter: every wait is exactly the schedule's step.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
  sqs.on(SendMessageCommand).resolves({ MessageId: 'dlq-message' });
  // The shards as put-secrets leaves them: UNSET_SECRET was never put, so its shard has no such key.
  for (const [secretId, json] of subscriberSecretShards({ HOOKS_SECRET: SECRET })) {
    secretsManager.on(GetSecretValueCommand, { SecretId: secretId }).resolves({ SecretString: json });
  }
});

afterEach(() => {
  const logged = output.text();
  sqs.reset();
  secretsManager.reset();
  vi.restoreAllMocks();
  // Whatever happened, no log line or metric carries the signing secret or a parent's contact details.
  expect(logged).not.toContain(SECRET.slice('whsec_'.length));
  expect(logged).not.toContain('parent@example.test');
  expect(logged).not.toContain('+351 000 000 000');
});

/** The handler's outcome lines of one kind (deliveryLogLines.ts), as the dashboard's queries read them. */
function outcomeLines(message: DeliveryOutcomeMessage): Record<string, unknown>[] {
  return output.logLines().filter((line) => line.message === message);
}

function freshEvent(): OrderEvent {
  return makeOrderEvent({ detectedAt: new Date(Date.now() - 5_000).toISOString() });
}

function answerWith(status: number, headers: Record<string, string> = {}, body = '') {
  answer = (_request, res) => res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
}

function stringAttribute(value: string | RegExp) {
  return {
    DataType: 'String',
    StringValue: typeof value === 'string' ? value : expect.stringMatching(value),
  };
}

describe('webhook-delivery handler', () => {
  it('delivers a signed event without contact details, deletes the message, and counts it', async () => {
    const event = freshEvent();
    const record = sqsEventRecord(event, queueOf('hooks'));

    const response = await handlerModule.handler({ Records: [record] });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.url).toBe('/hooks/hooks');
    expect(request?.verifiedBy).toEqual([true]);
    expect(request?.headers['webhook-id']).toBe(event.id);
    expect(JSON.parse(request?.body ?? '')).toEqual(eventForSubscriber(event, false));
    expect(request?.body).not.toContain('parent@example.test');
    expect(sqs).not.toHaveReceivedAnyCommand();
    // Counted by its log line, which the dashboard's widgets query: no custom metric.
    expect(output.emf()).toEqual([]);
    const [delivered] = outcomeLines('delivered');
    expect(delivered).toMatchObject({
      level: 'INFO',
      subscriber: 'hooks',
      eventId: event.id,
      attempts: 1,
      status: 204,
    });
    expect(delivered?.latencyMs).toBeGreaterThanOrEqual(5_000);
  });

  it('keeps contact details for a subscriber that opted in', async () => {
    const event = freshEvent();
    await handlerModule.handler({ Records: [sqsEventRecord(event, queueOf('hooks-full'))] });
    expect(receiver.received[0]?.body).toContain('parent@example.test');
    expect(JSON.parse(receiver.received[0]?.body ?? '')).toEqual(event);
  });

  it.each(RETRY_SCHEDULE_MS.slice(1).map((stepMs, index) => [index + 1, stepMs / 1000] as const))(
    'after a 500 on receive %i, hides the message for the schedule step of %i s and keeps it',
    async (receiveCount, seconds) => {
      answerWith(500, {}, 'receiver is down');
      const record = sqsEventRecord(freshEvent(), queueOf('hooks'), receiveCount);

      const response = await handlerModule.handler({ Records: [record] });

      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
      expect(sqs).toHaveReceivedCommandExactlyOnceWith(ChangeMessageVisibilityCommand, {
        QueueUrl: DELIVERY_QUEUE_URL,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      });
      expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
      expect(outcomeLines('delivery deferred')).toEqual([
        expect.objectContaining({ subscriber: 'hooks', attempts: receiveCount, retryInSeconds: seconds }),
      ]);
      expect(outcomeLines('delivered')).toEqual([]);
      expect(output.emf()).toEqual([]);
    },
  );

  it('dead-letters a 500 on the last receive of the schedule, with the reason, instead of hiding it again', async () => {
    answerWith(500, {}, 'receiver is down');
    const event = freshEvent();
    const record = sqsEventRecord(event, queueOf('hooks'), MAX_RECEIVE_COUNT);

    const response = await handlerModule.handler({ Records: [record] });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sqs).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    expect(sqs).toHaveReceivedCommandExactlyOnceWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('hooks'),
      MessageBody: record.body,
      MessageAttributes: expect.objectContaining({
        kind: stringAttribute('retries_exhausted'),
        reason: stringAttribute(
          /^retry schedule spent after 8 attempts; last: http:\/\/127\.0\.0\.1:\d+ answered 500/,
        ),
        attempts: { DataType: 'Number', StringValue: '8' },
        http_status: { DataType: 'Number', StringValue: '500' },
        event_id: stringAttribute(event.id),
      }),
    });
  });

  it('honours a 429 Retry-After longer than the schedule step', async () => {
    answerWith(429, { 'retry-after': '3600' });
    const record = sqsEventRecord(freshEvent(), queueOf('hooks'), 1);

    const response = await handlerModule.handler({ Records: [record] });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { VisibilityTimeout: 3_600 });
  });

  it('waits no longer than SQS allows when Retry-After asks for more', async () => {
    answerWith(503, { 'retry-after': String(2 * 86_400) });
    const record = sqsEventRecord(freshEvent(), queueOf('hooks'), 1);

    await handlerModule.handler({ Records: [record] });

    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, {
      VisibilityTimeout: MAX_RETRY_VISIBILITY_SECONDS,
    });
  });

  it('dead-letters a 400 at once, with the reason in message attributes, and deletes it', async () => {
    answerWith(400, {}, 'unknown order type');
    const event = freshEvent();
    const record = sqsEventRecord(event, queueOf('hooks'), 2);

    const response = await handlerModule.handler({ Records: [record] });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(1);
    expect(sqs).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
    expect(sqs).toHaveReceivedCommandExactlyOnceWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('hooks'),
      MessageBody: record.body,
      MessageAttributes: {
        kind: stringAttribute('dead'),
        reason: stringAttribute(/answered 400: unknown order type$/),
        subscriber: stringAttribute('hooks'),
        event_id: stringAttribute(event.id),
        http_status: { DataType: 'Number', StringValue: '400' },
        attempts: { DataType: 'Number', StringValue: '2' },
        dead_lettered_at: stringAttribute(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect(outcomeLines('dead-lettered')).toEqual([
      expect.objectContaining({ subscriber: 'hooks', attempts: 2, kind: 'dead' }),
    ]);
    expect(output.emf()).toEqual([]);
  });

  it('disables a subscriber that answers 410, and sends its later messages straight to its DLQ', async () => {
    answerWith(410);
    const first = sqsEventRecord(freshEvent(), queueOf('hooks-gone'));

    expect(await handlerModule.handler({ Records: [first] })).toEqual({ batchItemFailures: [] });
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('hooks-gone'),
      MessageAttributes: expect.objectContaining({ kind: stringAttribute('gone') }),
    });
    const stored = await new DynamoSubscriberStatus({
      client: table.client,
      tableName: table.tableName,
    }).disabled('hooks-gone');
    expect(stored?.reason).toMatch(/answered 410/);
    expect(outcomeLines('subscriber disabled')).toEqual([
      expect.objectContaining({ subscriber: 'hooks-gone', status: 410 }),
    ]);
    expect(outcomeLines('dead-lettered')).toEqual([
      expect.objectContaining({ subscriber: 'hooks-gone', kind: 'gone' }),
    ]);
    expect(output.emf()).toEqual([]);

    answerWith(204);
    const later = sqsEventRecord(freshEvent(), queueOf('hooks-gone'));
    expect(await handlerModule.handler({ Records: [later] })).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(1);
    expect(sqs).toHaveReceivedNthCommandWith(SendMessageCommand, 2, {
      QueueUrl: deadLetterQueueUrlOf('hooks-gone'),
      MessageBody: later.body,
      MessageAttributes: expect.objectContaining({
        kind: stringAttribute('subscriber_disabled'),
        reason: stringAttribute(/^subscriber was disabled at .*answered 410/),
      }),
    });
  });

  it.each([
    ['not JSON', 'order created!', /^message body is not JSON$/],
    [
      'JSON but not an event',
      '{"specversion":"1.0","id":"e1"}',
      /^message body is not an event of the contract: type: .*expected.*'order\.created'.*'establishment\.prep_summary'/i,
    ],
    [
      'an event of a known type with a part missing',
      '{"specversion":"1.0","id":"e1","type":"order.created"}',
      /^message body is not an event of the contract: source: /,
    ],
  ])('dead-letters a body that is %s, without a request', async (_what, body, reason) => {
    const record = sqsRecord({ body, queue: queueOf('hooks') });

    expect(await handlerModule.handler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(0);
    expect(sqs).toHaveReceivedCommandExactlyOnceWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('hooks'),
      MessageBody: body,
      MessageAttributes: expect.objectContaining({
        kind: stringAttribute('malformed'),
        reason: stringAttribute(reason),
      }),
    });
  });

  it('dead-letters the messages of a subscriber disabled in the config, without a request', async () => {
    const record = sqsEventRecord(freshEvent(), queueOf('hooks-off'));
    expect(await handlerModule.handler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(0);
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      MessageAttributes: expect.objectContaining({
        kind: stringAttribute('subscriber_disabled'),
        reason: stringAttribute('subscriber is disabled in the config'),
      }),
    });
  });

  it('reports only the failed records of a mixed batch', async () => {
    const failing = freshEvent();
    answer = (request, res) => res.writeHead(request.headers['webhook-id'] === failing.id ? 502 : 200).end();
    const records = [freshEvent(), failing, freshEvent()].map((event) =>
      sqsEventRecord(event, queueOf('hooks')),
    );

    const response = await handlerModule.handler({ Records: records });

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]?.messageId }] });
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual(
      records.map((record) => JSON.parse(record.body).id),
    );
    expect(outcomeLines('delivered')).toHaveLength(2);
    expect(outcomeLines('delivery deferred')).toEqual([
      expect.objectContaining({ subscriber: 'hooks', eventId: failing.id }),
    ]);
    expect(output.emf()).toEqual([]);
  });

  it('retries on the schedule, without a request, while a subscriber’s secret is not in its shard, naming the shard, the name, the subscriber and the command', async () => {
    const record = sqsEventRecord(freshEvent(), queueOf('hooks-unset'));

    const response = await handlerModule.handler({ Records: [record] });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(receiver.received).toHaveLength(0);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { VisibilityTimeout: 5 });
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    // The deployed bundle holds the webhook subscribers alone: an index would point at another of the file's.
    expect(output.text()).toContain(
      `secret ${subscriberSecretShardOf('UNSET_SECRET')} has no value for UNSET_SECRET in Secrets Manager (needed by $.subscribers[?@.id=='hooks-unset'].secret); set it with: meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix meal-order-notifier/ --file`,
    );
    // Read from the shards, never from a secret of the reference's own.
    const asked = secretsManager
      .commandCalls(GetSecretValueCommand)
      .map(({ args }) => args[0].input.SecretId);
    expect(asked).toContain(subscriberSecretShardOf('UNSET_SECRET'));
    expect(asked.every((id) => id?.startsWith('meal-order-notifier/subscriber-secrets'))).toBe(true);
  });

  it('dead-letters a message for a subscriber its config does not have, naming it', async () => {
    const record = sqsEventRecord(freshEvent(), queueOf('old-hooks'));

    const response = await handlerModule.handler({ Records: [record] });

    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.received).toHaveLength(0);
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: deadLetterQueueUrlOf('old-hooks'),
      MessageAttributes: expect.objectContaining({
        subscriber: { DataType: 'String', StringValue: 'old-hooks' },
        kind: { DataType: 'String', StringValue: 'subscriber_disabled' },
      }),
    });
  });

  it('keeps a message whose dead-lettering failed, to settle it on a later receive', async () => {
    answerWith(400);
    sqs.on(SendMessageCommand).rejects(Object.assign(new Error('Access denied'), { name: 'AccessDenied' }));
    const record = sqsEventRecord(freshEvent(), queueOf('hooks'));

    const response = await handlerModule.handler({ Records: [record] });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  });

  it('hands records back unattempted, visible at once, when the invocation is running out of time', async () => {
    const records = [freshEvent(), freshEvent()].map((event) => sqsEventRecord(event, queueOf('hooks')));

    const response = await handlerModule.handler(
      { Records: records },
      { getRemainingTimeInMillis: () => 5_000 },
    );

    expect(response.batchItemFailures).toEqual(
      records.map((record) => ({ itemIdentifier: record.messageId })),
    );
    expect(receiver.received).toHaveLength(0);
    expect(sqs).toHaveReceivedCommandTimes(ChangeMessageVisibilityCommand, 2);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, { VisibilityTimeout: 0 });
  });
});
