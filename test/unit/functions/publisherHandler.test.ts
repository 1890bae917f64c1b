// The publisher Lambda handler with SNS mocked (aws-sdk-client-mock): what it sends (PublishBatch of at
// most 10 entries, a body per protocol, the filter attributes, an SNS-safe subject), which stream records
// it ignores, and how SNS's per-entry failures and whole-call failures map back to the stream's sequence
// numbers.
import {
  PublishBatchCommand,
  type PublishBatchCommandInput,
  type PublishBatchRequestEntry,
  SNSClient,
} from '@aws-sdk/client-sns';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventMessageAttributes } from '../../../shared/contracts/messageAttributes.js';
import { snsSubject } from '../../../shared/delivery/email/snsEmailMessage.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { eventInsertRecord, sequenceOf, streamRecord } from '../../support/lambdaRecords.js';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:meal-order-events';
const BASE = makeOrderEvent({ type: 'order.canceled' });
/** The organization of the events sets its own highlight words: the e-mail body flags with them. */
const PUBLISHER_CONFIG = {
  api: { baseUrl: 'https://example.test/api/v1/admin' },
  organizations: [
    {
      id: BASE.data.organization.id,
      name: BASE.data.organization.name,
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
      highlightWords: ['grandma'],
    },
  ],
};
const sns = mockClient(SNSClient);
let handlerModule: typeof import('../../../functions/publisher/handler.js');
let output: CapturedOutput;

beforeAll(async () => {
  vi.stubEnv('TOPIC_ARN', TOPIC_ARN);
  vi.stubEnv('NOTIFIER_CONFIG', JSON.stringify(PUBLISHER_CONFIG));
  vi.stubEnv('CATCH_UP_AFTER_SECONDS', '900');
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  handlerModule = await import('../../../functions/publisher/handler.js');
});

afterAll(() => {
  vi.unstubAllEnvs();
});

beforeEach(() => {
  output = captureOutput();
  // SNS accepts every entry unless a test says otherwise.
  sns.on(PublishBatchCommand).callsFake((input: PublishBatchCommandInput) => ({
    Successful: (input.PublishBatchRequestEntries ?? []).map(({ Id }) => ({ Id, MessageId: `sns-${Id}` })),
    Failed: [],
  }));
});

afterEach(() => {
  sns.reset();
  vi.restoreAllMocks();
});

/** `count` distinct events (ids differ), each as the stream INSERT of its event item. */
function events(count: number): { events: OrderEvent[]; records: DynamoDBRecord[] } {
  const list = Array.from({ length: count }, (_, index) => ({ ...BASE, id: `${BASE.id}-${index}` }));
  return { events: list, records: list.map((event) => eventInsertRecord(event)) };
}

function sentEntries(): PublishBatchRequestEntry[][] {
  return sns
    .commandCalls(PublishBatchCommand)
    .map((call) => call.args[0].input.PublishBatchRequestEntries ?? []);
}

function snsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $fault: 'client' });
}

describe('publisher handler', () => {
  it('publishes each event with a body per protocol, the filter attributes and an SNS-safe subject', async () => {
    const {
      events: [event],
      records,
    } = events(1);
    if (!event) throw new Error('no event');

    const response = await handlerModule.handler({ Records: records });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 1);
    expect(sns).toHaveReceivedCommandWith(PublishBatchCommand, {
      TopicArn: TOPIC_ARN,
      PublishBatchRequestEntries: [
        {
          Id: 'e0',
          Message: expect.any(String),
          MessageStructure: 'json',
          Subject: snsSubject(event),
          MessageAttributes: eventMessageAttributes(event, { catchUpAfterSeconds: [900] }),
        },
      ],
    });
    const message = JSON.parse(sentEntries()[0]?.[0]?.Message ?? '{}') as { default: string; email: string };
    // The queues get the whole event, contact details included: each delivery function redacts per subscriber.
    expect(JSON.parse(message.default)).toEqual(event);
    expect(message.default).toContain('parent@example.test');
    // The one e-mail list serves every e-mail subscriber, so it never carries contact details.
    expect(message.email).toContain(event.data.order.reference);
    expect(message.email).not.toContain('parent@example.test');
    expect(message.email).not.toContain('+351 000 000 000');
    expect(Object.keys(eventMessageAttributes(event)).sort()).toEqual(
      ['audience', 'establishment', 'organization', 'payment_method', 'status', 'type'].sort(),
    );
  });

  it("flags the notes of the e-mail body with the words of the event's organization, from its config", async () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: { notes: 'Picked up by grandma, allergic to eggs' },
    });
    await handlerModule.handler({ Records: [eventInsertRecord(event)] });
    const message = JSON.parse(sentEntries()[0]?.[0]?.Message ?? '{}') as { email: string };
    expect(message.email).toContain(
      '\nNotes:\n  [ALLERGY/DIET] Order: Picked up by grandma, allergic to eggs\n',
    );
    const other = makeOrderEvent({ type: 'order.canceled', order: { notes: 'Picked up by grandma' } });
    const elsewhere = { ...other, data: { ...other.data, organization: { id: 'another', name: 'Another' } } };
    sns.resetHistory();
    await handlerModule.handler({ Records: [eventInsertRecord(elsewhere)] });
    const body = JSON.parse(sentEntries()[0]?.[0]?.Message ?? '{}') as { email: string };
    // An organization the config does not have gets the default words, which do not name a grandma.
    expect(body.email).toContain('\nNotes:\n  Order: Picked up by grandma\n');
  });

  it('keeps an event found longer after its change than a catch-up threshold from that threshold’s people', async () => {
    const {
      events: [event],
    } = events(1);
    if (!event) throw new Error('no event');
    const detectedAt = Date.parse(event.time);
    const stale = eventInsertRecord(event, JSON.stringify(event), detectedAt - 16 * 60_000);
    const timely = eventInsertRecord({ ...event, id: `${event.id}-b` }, undefined, detectedAt - 14 * 60_000);

    await handlerModule.handler({ Records: [stale, timely] });

    const audiences = (sentEntries()[0] ?? []).map(({ MessageAttributes }) => MessageAttributes?.audience);
    expect(audiences).toEqual([
      { DataType: 'String', StringValue: 'every-event' },
      { DataType: 'String.Array', StringValue: JSON.stringify(['every-event', 'catch-up-after-900s']) },
    ]);
  });

  it('sends 23 events as PublishBatch calls of 10, 10 and 3, in stream order', async () => {
    const { events: list, records } = events(23);

    const response = await handlerModule.handler({ Records: records });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 3);
    const batches = sentEntries();
    expect(batches.map((entries) => entries.length)).toEqual([10, 10, 3]);
    expect(batches.flat().map(({ Message }) => JSON.parse(JSON.parse(Message ?? '{}').default).id)).toEqual(
      list.map(({ id }) => id),
    );
    for (const entries of batches) {
      expect(new Set(entries.map(({ Id }) => Id)).size).toBe(entries.length);
      for (const { Id } of entries) expect(Id).toMatch(/^[A-Za-z0-9_-]{1,80}$/);
    }
  });

  it('ignores stream records that are not inserted events, and succeeds for them', async () => {
    const {
      events: [event],
      records: [insert],
    } = events(1);
    if (!event || !insert) throw new Error('no event');
    const others = [
      streamRecord('INSERT', { pk: { S: 'ORG#o' }, sk: { S: 'SNAP#u' }, kind: { S: 'snapshot' } }),
      streamRecord('INSERT', {
        pk: { S: 'SUBSCRIBER#hooks' },
        sk: { S: 'DISABLED' },
        kind: { S: 'subscriberDisabled' },
      }),
      streamRecord('MODIFY', { pk: { S: 'ORG#o' }, sk: { S: 'STATE' }, kind: { S: 'pollState' } }),
      // An event item leaving by TTL, and an event item rewritten: neither is a new event.
      streamRecord('REMOVE', { pk: { S: 'ORG#o' }, sk: { S: 'EVENT#old' }, kind: { S: 'event' } }),
      streamRecord('MODIFY', {
        pk: { S: 'ORG#o' },
        sk: { S: 'EVENT#x' },
        kind: { S: 'event' },
        payload: { S: JSON.stringify(event) },
      }),
    ];

    expect(await handlerModule.handler({ Records: others })).toEqual({ batchItemFailures: [] });
    expect(sns).not.toHaveReceivedCommand(PublishBatchCommand);

    expect(await handlerModule.handler({ Records: [...others, insert] })).toEqual({ batchItemFailures: [] });
    expect(sentEntries().map((entries) => entries.length)).toEqual([1]);
  });

  it('reports exactly the records whose entries SNS answered Failed', async () => {
    const { records } = events(5);
    sns.on(PublishBatchCommand).resolves({
      Successful: [{ Id: 'e0' }, { Id: 'e2' }, { Id: 'e4' }],
      Failed: [
        { Id: 'e1', Code: 'InternalError', Message: 'try again', SenderFault: false },
        { Id: 'e3', Code: 'KMSThrottling', SenderFault: false },
      ],
    });

    const response = await handlerModule.handler({ Records: records });

    expect(response.batchItemFailures).toEqual([
      { itemIdentifier: sequenceOf(records[1] as DynamoDBRecord) },
      { itemIdentifier: sequenceOf(records[3] as DynamoDBRecord) },
    ]);
  });

  it('reports every record of a throttled call, and sends nothing after it, since the stream redelivers from there', async () => {
    const { records } = events(23);
    sns
      .on(PublishBatchCommand)
      .resolvesOnce({ Successful: Array.from({ length: 10 }, (_, index) => ({ Id: `e${index}` })) })
      .rejectsOnce(snsError('ThrottledException', 'Rate exceeded'));

    const response = await handlerModule.handler({ Records: records });

    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 2);
    expect(response.batchItemFailures).toEqual(
      records.slice(10).map((record) => ({ itemIdentifier: sequenceOf(record) })),
    );
    expect(output.text()).toContain('ThrottledException');
  });

  it('reports an event item whose payload is not an event, with every event after it, and publishes those before it', async () => {
    const { records } = events(3);
    const [first, second, third] = records as [DynamoDBRecord, DynamoDBRecord, DynamoDBRecord];
    const broken = eventInsertRecord(BASE, '{"specversion":"1.0"');

    const response = await handlerModule.handler({ Records: [first, broken, second, third] });

    expect(sentEntries().map((entries) => entries.length)).toEqual([1]);
    expect(response.batchItemFailures).toEqual(
      [broken, second, third].map((record) => ({ itemIdentifier: sequenceOf(record) })),
    );
  });

  it('counts published and failed events in its batch line, and publishes no custom metric', async () => {
    const { records } = events(3);
    sns.on(PublishBatchCommand).resolves({
      Successful: [{ Id: 'e0' }, { Id: 'e1' }],
      Failed: [{ Id: 'e2', Code: 'InternalError', SenderFault: false }],
    });

    await handlerModule.handler({ Records: records });

    const batchLine = output
      .text()
      .split('\n')
      .find((line) => line.includes('"stream batch"'));
    expect(JSON.parse(batchLine ?? '{}')).toMatchObject({ records: 3, published: 2, failed: 1 });
    expect(output.emf()).toEqual([]);
  });
});
