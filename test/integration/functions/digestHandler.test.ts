// The digest Lambda handler as AWS runs it: the event log and the digests' claims in DynamoDB Local, SNS
// mocked (aws-sdk-client-mock), the clock fixed a minute after an hourly period ended.
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../../shared/config/configSchema.js';
import { DigestEventSchema } from '../../../shared/events/digestEvent.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import { ORGANIZATION_CONFIG, stubDeliveryEnvironment } from '../../support/deliveryFunctionEnv.js';
import { parsedOrder, snapshotOf } from '../../support/detectFixtures.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:meal-order-notifier-events';
const PERIOD_START = Date.parse('2026-11-24T11:00:00Z');
const PERIOD_END = PERIOD_START + 3_600_000;
const sns = mockClient(SNSClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sns.restore();
});
let table: LocalTable;
let handlerModule: typeof import('../../../functions/digest/handler.js');
let output: CapturedOutput;

function config(): ConfigInput {
  return {
    api: { baseUrl: 'https://example.test/api/v1/admin' },
    organizations: [ORGANIZATION_CONFIG],
    smtp: { url: { env: 'SMTP_URL' }, from: 'notifier@example.test' },
    subscribers: [
      {
        id: 'office',
        type: 'email',
        to: ['office@example.test'],
        digest: { every: '1h', types: ['order.created', 'order.completed'] },
      },
    ],
  };
}

/** Records events in the log as the poller would, at the given times. */
async function record(recordedAt: number, events: ReturnType<typeof makeOrderEvent>[]): Promise<void> {
  const store = new DynamoStateStore({
    client: table.client,
    tableName: table.tableName,
    clock: () => recordedAt,
  });
  for (const event of events) {
    const result = await store.commitChange(ORGANIZATION_CONFIG.id, {
      snapshot: snapshotOf(parsedOrder({ uuid: event.data.order.uuid })),
      events: [event],
    });
    expect(result.outcome).toBe('committed');
  }
}

beforeAll(async () => {
  table = await createLocalStateTable();
  stubDeliveryEnvironment(config(), table.tableName);
  vi.stubEnv('TOPIC_ARN', TOPIC_ARN);
  handlerModule = await import('../../../functions/digest/handler.js');
  await record(PERIOD_START + 60_000, [makeOrderEvent({ order: { reference: 'R-1' } })]);
  await record(PERIOD_START + 90_000, [
    makeOrderEvent({ type: 'order.completed', order: { reference: 'R-2' } }),
  ]);
  // Not of the digest's types: sent at once, never in the digest.
  await record(PERIOD_START + 120_000, [
    makeOrderEvent({ type: 'order.canceled', order: { reference: 'R-3' } }),
  ]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await table.drop();
});

beforeEach(() => {
  output = captureOutput();
  sns.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(PERIOD_END + 60_000);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the digest handler', () => {
  it('publishes the ended period’s digest for its one subscriber, then nothing on a re-run', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
    const report = await handlerModule.handler();
    expect(report.sent).toEqual([
      expect.objectContaining({ subscriberId: 'office', organizationId: ORGANIZATION_CONFIG.id, events: 2 }),
    ]);
    const calls = sns.commandCalls(PublishCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    expect(input).toMatchObject({
      TopicArn: TOPIC_ARN,
      MessageStructure: 'json',
      Subject: expect.stringMatching(/^Digest: 2 events, 11:00-12:00 - North School$/),
      MessageAttributes: {
        type: { DataType: 'String', StringValue: 'digest.email' },
        organization: { DataType: 'String', StringValue: ORGANIZATION_CONFIG.id },
        digest: { DataType: 'String', StringValue: 'office' },
      },
    });
    const body = JSON.parse(input?.Message ?? '{}') as { default: string; email: string };
    const digest = DigestEventSchema.parse(JSON.parse(body.default));
    expect(digest.data.events.map((entry) => entry.reference)).toEqual(['R-1', 'R-2']);
    expect(digest.data.period_start).toBe('2026-11-24T11:00:00+00:00');
    expect(body.email).toContain('R-1');
    expect(body.email).not.toContain('R-3');

    // The schedule runs again (or Scheduler delivers twice): the claim refuses the copy.
    sns.reset();
    const again = await handlerModule.handler();
    expect(again.sent).toEqual([]);
    expect(sns.commandCalls(PublishCommand)).toHaveLength(0);
    expect(output.text()).toContain('"message":"digest sent"');
  });
});

describe('a digest whose publish failed', () => {
  it('fails the run, is not sent by a run that follows at once, and is sent once its claim is stale', async () => {
    // A later period, so this test does not depend on the first one's claim.
    await record(PERIOD_END + 10 * 60_000, [makeOrderEvent({ order: { reference: 'R-4' } })]);
    vi.setSystemTime(PERIOD_END + 3_600_000 + 60_000);
    sns.on(PublishCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottledException' }));
    await expect(handlerModule.handler()).rejects.toThrow(/1 digest\(s\) not published/);
    expect(output.text()).toContain('ThrottledException: Rate exceeded');

    sns.reset();
    sns.on(PublishCommand).resolves({ MessageId: 'm-2' });
    expect((await handlerModule.handler()).sent).toEqual([]);

    vi.setSystemTime(PERIOD_END + 2 * 3_600_000 + 60_000);
    const retried = await handlerModule.handler();
    expect(retried.sent.map((sent) => sent.events)).toEqual([1]);
    const published = sns.commandCalls(PublishCommand).map((call) => call.args[0].input.Message ?? '');
    expect(published).toHaveLength(1);
    expect(published[0]).toContain('R-4');
  });
});
