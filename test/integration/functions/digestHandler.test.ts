// The digest Lambda handler as AWS runs it: the event log and the digests' claims in DynamoDB Local, SNS
// mocked (aws-sdk-client-mock) and refusing, as SNS does, a publish over 256 KB, the clock fixed a minute
// after an hourly period ended. Two subscribers: `office` (orders created and completed) and `kitchen`
// (orders archived), so one's digest going wrong can be seen not to stop the other's.
import { PublishCommand, type PublishCommandInput, SNSClient } from '@aws-sdk/client-sns';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../../shared/config/configSchema.js';
import { DigestEventSchema } from '../../../shared/events/digestEvent.js';
import { DynamoDigestStore } from '../../../shared/store/dynamo/dynamoDigestStore.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { digestKey } from '../../../shared/store/dynamo/stateTableKeys.js';
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
      {
        id: 'kitchen',
        type: 'email',
        to: ['kitchen@example.test'],
        digest: { every: '1h', types: ['order.archived'] },
      },
    ],
  };
}

/** SNS's limit on one Publish: the message and its attributes, 262,144 bytes in all. */
const SNS_MAX_BYTES = 262_144;

function publishBytes(input: PublishCommandInput): number {
  let bytes = Buffer.byteLength(input.Message ?? '');
  for (const [name, value] of Object.entries(input.MessageAttributes ?? {}))
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(value.DataType ?? '') +
      Buffer.byteLength(value.StringValue ?? '');
  return bytes;
}

/** SNS as it answers a publish: refused over its size limit, else accepted. */
function snsAcceptsWithinItsLimit(): void {
  let sent = 0;
  sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
    if (publishBytes(input) > SNS_MAX_BYTES)
      throw Object.assign(new Error('Invalid parameter: Message too long'), {
        name: 'InvalidParameterException',
      });
    sent += 1;
    return { MessageId: `m-${sent}` };
  });
}

function publishedTo(subscriberId: string): PublishCommandInput[] {
  return sns
    .commandCalls(PublishCommand)
    .map((call) => call.args[0].input)
    .filter((input) => input.MessageAttributes?.digest?.StringValue === subscriberId);
}

function digestOf(input: PublishCommandInput) {
  const body = JSON.parse(input.Message ?? '{}') as { default: string; email: string };
  return { digest: DigestEventSchema.parse(JSON.parse(body.default)), email: body.email };
}

/** Logs events in bulk as the poller's recordEvents does, 100 at a time, at the given time. */
async function recordMany(recordedAt: number, events: ReturnType<typeof makeOrderEvent>[]): Promise<void> {
  const store = new DynamoStateStore({
    client: table.client,
    tableName: table.tableName,
    clock: () => recordedAt,
  });
  for (let start = 0; start < events.length; start += 100)
    await store.recordEvents(ORGANIZATION_CONFIG.id, events.slice(start, start + 100));
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
    await expect(handlerModule.handler()).rejects.toThrow(/1 digest\(s\) not sent/);
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

describe('a digest of 3,000 events', () => {
  // 3,000 events written to DynamoDB Local and read back, four parts claimed: some 15 s alone, and a minute
  // and more beside other work on a 2-core machine.
  it('goes out as numbered parts each within SNS’s 256 KB, claimed within DynamoDB’s item limit, and the other subscriber’s digest goes too', {
    timeout: 180_000,
  }, async () => {
    // Two days on, so no earlier period is in the run's catch-up window.
    const start = PERIOD_START + 48 * 3_600_000;
    const events = Array.from({ length: 3_000 }, (_, n) =>
      makeOrderEvent({ order: { reference: `B-${n}` } }),
    );
    await recordMany(start + 60_000, events);
    await record(start + 120_000, [makeOrderEvent({ type: 'order.archived', order: { reference: 'K-1' } })]);
    vi.setSystemTime(start + 3_600_000 + 60_000);
    snsAcceptsWithinItsLimit();

    const report = await handlerModule.handler();

    expect(report.failed).toEqual([]);
    const office = publishedTo('office');
    expect(office).toHaveLength(4);
    for (const input of office) expect(publishBytes(input)).toBeLessThanOrEqual(SNS_MAX_BYTES);
    expect(office.map((input) => input.Subject)).toEqual(
      [1, 2, 3, 4].map((n) => `Digest part ${n} of 4: 3000 events, 11:00-12:00 - North School`),
    );
    const parts = office.map((input) => digestOf(input));
    expect(parts.map(({ digest }) => digest.data.part?.number)).toEqual([1, 2, 3, 4]);
    expect(parts[1]?.email).toContain(`Part 2 of 4: events ${parts[1]?.digest.data.part?.first_event} to`);
    const listed = parts.flatMap(({ digest }) => digest.data.events.map((entry) => entry.reference));
    expect(listed).toHaveLength(3_000);
    expect(new Set(listed)).toEqual(new Set(events.map((event) => event.data.order.reference)));
    expect(report.sent.filter((sent) => sent.subscriberId === 'office').map((sent) => sent.part)).toEqual([
      'part 1 of 4',
      'part 2 of 4',
      'part 3 of 4',
      'part 4 of 4',
    ]);

    // Each part's claim is in the table, marked sent, under the part's own id.
    const documents = DynamoDBDocumentClient.from(table.client);
    for (const { digest } of parts) {
      const claim = await documents.send(
        new GetCommand({ TableName: table.tableName, Key: digestKey(ORGANIZATION_CONFIG.id, digest.id) }),
      );
      expect(claim.Item?.sentAt).toEqual(expect.any(Number));
    }
    expect(new Set(parts.map(({ digest }) => digest.id)).size).toBe(4);

    const kitchen = publishedTo('kitchen');
    expect(
      kitchen.map((input) => digestOf(input).digest.data.events.map((entry) => entry.reference)),
    ).toEqual([['K-1']]);

    // A second run (or Scheduler delivering twice) sends no part again.
    sns.reset();
    snsAcceptsWithinItsLimit();
    expect((await handlerModule.handler()).sent).toEqual([]);
    expect(sns.commandCalls(PublishCommand)).toHaveLength(0);
  });
});

describe('a digest whose claim fails', () => {
  it('is reported with its subscriber and fails the run, while the next subscriber’s digest is still sent', async () => {
    const start = PERIOD_START + 96 * 3_600_000;
    await record(start + 60_000, [makeOrderEvent({ order: { reference: 'O-1' } })]);
    await record(start + 120_000, [makeOrderEvent({ type: 'order.archived', order: { reference: 'K-2' } })]);
    vi.setSystemTime(start + 3_600_000 + 60_000);
    snsAcceptsWithinItsLimit();
    const claim = DynamoDigestStore.prototype.recordDigest;
    const failing = vi.spyOn(DynamoDigestStore.prototype, 'recordDigest').mockImplementation(async function (
      this: DynamoDigestStore,
      organizationId,
      digest,
    ) {
      if (digest.data.subscriber_id === 'office')
        throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), {
          name: 'ValidationException',
        });
      return claim.call(this, organizationId, digest);
    });

    await expect(handlerModule.handler()).rejects.toThrow(/1 digest\(s\) not sent/);

    expect(publishedTo('office')).toHaveLength(0);
    expect(publishedTo('kitchen').map((input) => digestOf(input).digest.data.events[0]?.reference)).toEqual([
      'K-2',
    ]);
    const logged = output
      .text()
      .split('\n')
      .filter((line) => line.includes('digest not sent'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        subscriberId: 'office',
        stage: 'claim',
        reason: 'ValidationException: Item size has exceeded the maximum allowed size',
      }),
    ]);

    // The next run claims and sends it; the kitchen's is not sent again.
    failing.mockRestore();
    sns.reset();
    snsAcceptsWithinItsLimit();
    const next = await handlerModule.handler();
    expect(next.sent.map((sent) => sent.subscriberId)).toEqual(['office']);
    expect(publishedTo('office')).toHaveLength(1);
  });
});
