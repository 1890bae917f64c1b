// `meal-notifier replay --stack`, in-process against a state table on DynamoDB Local with SQS mocked: a
// subscriber's dead letters, picked by their `subscriber` attribute from its channel's shared dead-letter
// queue, moved back to the channel's queue in its message group (deleted only once their copies are
// there; the other subscribers' left where they are), or events
// of the table put on its queue exactly as the event topic delivers them, filter applied; a subscriber a
// receiver had disabled is enabled again, and the replay waits out the delivery functions' cache.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventMessageAttributes } from '../../../shared/contracts/messageAttributes.js';
import { deadLetterAttributes } from '../../../shared/delivery/sqs/deadLetters.js';
import { NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import {
  type DeployedStackFixture,
  deployedStackFixture,
  QUEUE_URLS,
  stubStackEnv,
} from '../../support/deployedStackFixture.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../../support/stateStoreConformance.js';

const sqs = mockClient(SQSClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
});
let stack: DeployedStackFixture;
const { queueUrl, deadLetterQueueUrl } = QUEUE_URLS.automation;

// automation's filter takes order.created only.
const created = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
const canceled = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.canceled');

beforeAll(async () => {
  stack = await deployedStackFixture();
  for (const event of [created, canceled]) {
    await stack.store.commitChange(NORTH_SCHOOL_ID, {
      snapshot: makeSnapshot(event.subject),
      events: [event],
    });
  }
});

afterAll(async () => {
  await stack.close();
});

beforeEach(() => {
  stubStackEnv(stack);
  sqs.on(ReceiveMessageCommand).resolves({ Messages: [] });
  sqs.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommandInput) => ({
    Successful: (input.Entries ?? []).map(({ Id }) => ({ Id, MessageId: `sqs-${Id}`, MD5OfMessageBody: '' })),
    Failed: [],
  }));
  sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
});

afterEach(() => {
  sqs.reset();
  vi.unstubAllEnvs();
});

function deadLetters() {
  sqs
    .on(ReceiveMessageCommand, { QueueUrl: deadLetterQueueUrl })
    .resolvesOnce({
      Messages: [
        {
          MessageId: 'm-1',
          ReceiptHandle: 'h-1',
          Body: JSON.stringify(created),
          MessageAttributes: deadLetterAttributes({
            kind: 'retries_exhausted',
            reason: 'HTTP 503 after 8 attempts',
            subscriberId: 'automation',
            eventId: created.id,
            status: 503,
            attempts: 8,
            atMs: Date.now(),
          }),
        },
        // Moved by the redrive policy: the split copy's attributes, its subscriber's among them.
        {
          MessageId: 'm-2',
          ReceiptHandle: 'h-2',
          Body: JSON.stringify(canceled),
          MessageAttributes: {
            type: { DataType: 'String', StringValue: 'order.canceled' },
            subscriber: { DataType: 'String', StringValue: 'automation' },
          },
        },
        // Another webhook subscriber's, on the channel's shared dead-letter queue: it stays there.
        {
          MessageId: 'm-3',
          ReceiptHandle: 'h-3',
          Body: JSON.stringify(created),
          MessageAttributes: deadLetterAttributes({
            kind: 'dead',
            reason: 'HTTP 500',
            subscriberId: 'partner-hooks',
            eventId: created.id,
            status: 500,
            attempts: 8,
            atMs: Date.now(),
          }),
        },
      ],
    })
    .resolves({ Messages: [] });
}

function sentEntries() {
  return sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries ?? []);
}

describe('meal-notifier replay --stack --dead-letters', () => {
  it("moves the subscriber's dead letters back to its queue, then deletes them from the dead-letter queue", async () => {
    deadLetters();

    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--dead-letters',
    ]);

    expect(result.code).toBe(0);
    expect(sqs).toHaveReceivedCommandWith(SendMessageBatchCommand, { QueueUrl: queueUrl });
    // The original bodies, in the subscriber's message group and naming it; the reason attributes stay
    // behind, the original ones go along.
    const named = { subscriber: { DataType: 'String', StringValue: 'automation' } };
    expect(sentEntries()).toEqual([
      {
        Id: 'm0',
        MessageBody: JSON.stringify(created),
        MessageGroupId: 'automation',
        MessageAttributes: named,
        DelaySeconds: 0,
      },
      {
        Id: 'm1',
        MessageBody: JSON.stringify(canceled),
        MessageGroupId: 'automation',
        MessageAttributes: { type: { DataType: 'String', StringValue: 'order.canceled' }, ...named },
        DelaySeconds: 0,
      },
    ]);
    expect(sqs).toHaveReceivedCommandWith(DeleteMessageBatchCommand, {
      QueueUrl: deadLetterQueueUrl,
      Entries: [
        { Id: 'm0', ReceiptHandle: 'h-1' },
        { Id: 'm1', ReceiptHandle: 'h-2' },
      ],
    });
    // The other subscriber's letter is given back, never moved or deleted.
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityBatchCommand, {
      QueueUrl: deadLetterQueueUrl,
      Entries: [{ Id: 'm0', ReceiptHandle: 'h-3', VisibilityTimeout: 0 }],
    });
    expect(sqs.commandCalls(DeleteMessageBatchCommand)).toHaveLength(1);
    expect(result.stderr).toContain('2 dead letters moved back to automation');
  });

  it('leaves on the dead-letter queue what its queue refused, and says so', async () => {
    deadLetters();
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: 'm0', MessageId: 'sqs-m0', MD5OfMessageBody: '' }],
      Failed: [{ Id: 'm1', Code: 'InternalError', SenderFault: false, Message: 'try again' }],
    });

    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--dead-letters',
    ]);

    expect(result.code).toBe(1);
    expect(sqs).toHaveReceivedCommandWith(DeleteMessageBatchCommand, {
      Entries: [{ Id: 'm0', ReceiptHandle: 'h-1' }],
    });
    expect(result.stderr).toBe(
      'meal-notifier: cannot reach the queue of automation: 1 message moved back, 1 left on the dead-letter queue: m1: InternalError (try again)\n',
    );
  });

  it('enables a disabled subscriber again, and delays the messages past the functions’ one-minute cache', async () => {
    deadLetters();
    await stack.subscriberStatus.disableSubscriber('automation', 'answered 410', Date.now());

    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--dead-letters',
    ]);

    expect(result.code).toBe(0);
    expect(await stack.subscriberStatus.enableSubscriber('automation')).toBe(false);
    expect(sentEntries().map(({ DelaySeconds }) => DelaySeconds)).toEqual([65, 65]);
    expect(result.stderr).toContain('subscriber automation was disabled; it is enabled again\n');
    expect(result.stderr).toContain('delivered in 65 s');
  });
});

describe('meal-notifier replay --stack --event / --since', () => {
  it('puts the event on the subscriber’s queue as the event topic delivers it: its JSON, and its filter attributes', async () => {
    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--event',
      created.id,
    ]);

    expect(result.code).toBe(0);
    expect(sentEntries()).toEqual([
      {
        Id: 'e0',
        MessageBody: JSON.stringify(created),
        MessageGroupId: 'automation',
        MessageAttributes: {
          ...eventMessageAttributes(created),
          subscriber: { DataType: 'String', StringValue: 'automation' },
        },
        DelaySeconds: 0,
      },
    ]);
    expect(sqs).toHaveReceivedCommandWith(SendMessageBatchCommand, { QueueUrl: queueUrl });
    expect(result.stderr).toContain('1 event queued to automation');
  });

  it('sends only the events the subscriber’s filter matches, since the time given', async () => {
    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--since',
      '1h',
    ]);

    expect(result.code).toBe(0);
    expect(sentEntries().map(({ MessageBody }) => JSON.parse(MessageBody ?? '').id)).toEqual([created.id]);
  });

  it('refuses an event the subscriber’s filter does not match, an unknown event and an e-mail subscriber', async () => {
    const refusals = [
      [
        ['--subscriber', 'automation', '--event', canceled.id],
        `event ${canceled.id} does not match the filter of subscriber "automation"`,
      ],
      [
        ['--subscriber', 'automation', '--event', 'no-such-event'],
        'event no-such-event is not in the state table',
      ],
      [['--subscriber', 'office', '--since', '1h'], 'subscriber "office" is an e-mail subscriber'],
      [
        ['--subscriber', 'automation', '--dead-letters', '--since', '1h'],
        'give exactly one of --dead-letters, --event ID or --since TIME',
      ],
    ] as const;
    for (const [args, message] of refusals) {
      const result = await runCliInProcess(['replay', ...stack.stackArgs, ...args]);
      expect(result.code, message).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(sqs).not.toHaveReceivedCommand(SendMessageBatchCommand);
  });

  it('refuses --dead-letters without --stack: there is no dead-letter queue locally', async () => {
    const result = await runCliInProcess([
      'replay',
      '--config',
      stack.configPath,
      '--subscriber',
      'automation',
      '--dead-letters',
    ]);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dead-letters needs --stack NAME');
  });
});
