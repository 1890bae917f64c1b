// `meal-notifier deliveries --stack`, in-process with SQS mocked: the dead letters of each subscriber, read
// from its channel's shared dead-letter queue by their `subscriber` attribute, with the reason the delivery function gave (or the redrive policy's, when SQS moved a
// message the function never settled), read without taking anything off the queue; waiting deliveries are
// counted, never received.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadLetterAttributes } from '../../../shared/delivery/sqs/deadLetters.js';
import { NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import {
  type DeployedStackFixture,
  deployedStackFixture,
  QUEUE_URLS,
  STACK_NAME,
  stubStackEnv,
} from '../../support/deployedStackFixture.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';
import { makeEvent, newOrderUuid } from '../../support/stateStoreConformance.js';

const sqs = mockClient(SQSClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
});
let stack: DeployedStackFixture;

const gone = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
const stuck = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.canceled');
const neighbours = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.completed');

beforeAll(async () => {
  stack = await deployedStackFixture();
});

afterAll(async () => {
  await stack.close();
});

beforeEach(() => {
  stubStackEnv(stack);
  sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { ApproximateNumberOfMessages: '0' } });
  sqs.on(GetQueueAttributesCommand, { QueueUrl: QUEUE_URLS.automation.queueUrl }).resolves({
    Attributes: { ApproximateNumberOfMessages: '3', ApproximateNumberOfMessagesNotVisible: '1' },
  });
  sqs.on(ReceiveMessageCommand).resolves({ Messages: [] });
  sqs
    // Every read gets them (a reader gives back what it took), and stops at the ones it has seen.
    .on(ReceiveMessageCommand, { QueueUrl: QUEUE_URLS.automation.deadLetterQueueUrl })
    .resolves({
      Messages: [
        {
          MessageId: 'm-gone',
          ReceiptHandle: 'h-gone',
          Body: JSON.stringify(gone),
          MessageAttributes: deadLetterAttributes({
            kind: 'gone',
            reason: 'https://hooks.example.test/orders answered 410 Gone',
            subscriberId: 'automation',
            eventId: gone.id,
            status: 410,
            attempts: 1,
            atMs: Date.parse('2026-11-22T08:00:00.000Z'),
          }),
        },
        // Moved by the queue's redrive policy: the original attributes only, its subscriber's among them.
        {
          MessageId: 'm-stuck',
          ReceiptHandle: 'h-stuck',
          Body: JSON.stringify(stuck),
          Attributes: { SentTimestamp: String(Date.parse('2026-11-21T20:00:00.000Z')) },
          MessageAttributes: {
            type: { DataType: 'String', StringValue: 'order.canceled' },
            subscriber: { DataType: 'String', StringValue: 'automation' },
          },
        },
        // Another webhook subscriber's, on the channel's shared dead-letter queue: not automation's.
        {
          MessageId: 'm-neighbour',
          ReceiptHandle: 'h-neighbour',
          Body: JSON.stringify(neighbours),
          MessageAttributes: deadLetterAttributes({
            kind: 'dead',
            reason: 'https://partner.example.test/hooks answered 500',
            subscriberId: 'partner-hooks',
            eventId: neighbours.id,
            status: 500,
            attempts: 8,
            atMs: Date.parse('2026-11-22T09:00:00.000Z'),
          }),
        },
      ],
    });
  sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
});

afterEach(() => {
  sqs.reset();
  vi.unstubAllEnvs();
});

describe('meal-notifier deliveries --stack', () => {
  it('lists the dead letters with their reasons and leaves them on the queue', async () => {
    const result = await runCliInProcess(['deliveries', ...stack.stackArgs, '--failed']);

    expect(result.code).toBe(0);
    // Each row, then its last error on a line of its own.
    expect(result.stdout).toMatch(
      new RegExp(
        `│ automation\\s+│ order\\.created ORD-1\\s+│ dead\\s+│\n│\\s+│ ${gone.id}\\s+│ 1 attempt\\s+│\n` +
          '│ last error: gone: https://hooks\\.example\\.test/orders answered 410 Gone \\(HTTP 410\\)\\s+│',
      ),
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `│ automation\\s+│ order\\.canceled ORD-1\\s+│ dead\\s+│\n│\\s+│ ${stuck.id}\\s+│ 8 attempts\\s+│\n` +
          '│ last error: redrive policy: moved by the queue after too many',
      ),
    );
    expect(result.stdout).toContain('\n2 dead\n');
    // Taken for a few seconds to page through the queue, given back at once, never deleted.
    expect(sqs).toHaveReceivedCommandWith(ReceiveMessageCommand, {
      QueueUrl: QUEUE_URLS.automation.deadLetterQueueUrl,
      VisibilityTimeout: 30,
      MessageAttributeNames: ['All'],
    });
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityBatchCommand, {
      QueueUrl: QUEUE_URLS.automation.deadLetterQueueUrl,
      Entries: [
        { Id: 'm0', ReceiptHandle: 'h-gone', VisibilityTimeout: 0 },
        { Id: 'm1', ReceiptHandle: 'h-stuck', VisibilityTimeout: 0 },
        { Id: 'm2', ReceiptHandle: 'h-neighbour', VisibilityTimeout: 0 },
      ],
    });
    // Only automation's letters are listed, though the queue is the channel's.
    expect(result.stdout).not.toContain('partner-hooks');
    expect(result.stdout).not.toContain(neighbours.id);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageBatchCommand);
    // The subscribers' own queues are never received from: that would count as a delivery attempt.
    for (const { queueUrl } of Object.values(QUEUE_URLS)) {
      expect(sqs).not.toHaveReceivedCommandWith(ReceiveMessageCommand, { QueueUrl: queueUrl });
    }
  });

  it('gives each dead letter as JSON, with its kind, reason, HTTP status and event', async () => {
    const result = await runCliInProcess(['deliveries', ...stack.stackArgs, '--failed', '--json']);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        subscriberId: 'automation',
        messageId: 'm-gone',
        eventId: gone.id,
        eventType: 'order.created',
        reference: 'ORD-1',
        kind: 'gone',
        reason: 'https://hooks.example.test/orders answered 410 Gone',
        attempts: 1,
        httpStatus: 410,
        deadLetteredAt: '2026-11-22T08:00:00.000Z',
      },
      expect.objectContaining({
        messageId: 'm-stuck',
        eventId: stuck.id,
        kind: 'redrive policy',
        deadLetteredAt: '2026-11-21T20:00:00.000Z',
      }),
    ]);
  });

  it('counts the deliveries waiting on each channel’s queue once, as every subscriber’s of the channel, without receiving them', async () => {
    const result = await runCliInProcess(['deliveries', ...stack.stackArgs]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'webhook: 4 waiting on the webhook queue, every webhook subscriber’s (counted, not listed)\n',
    );
    expect(result.stdout).toContain('\n4 queued, 2 dead\n');
    expect(sqs).not.toHaveReceivedCommandWith(ReceiveMessageCommand, {
      QueueUrl: QUEUE_URLS.automation.queueUrl,
    });
  });

  it('names a disabled subscriber and how to enable it again', async () => {
    await stack.subscriberStatus.disableSubscriber(
      'automation',
      'https://hooks.example.test/orders answered 410',
      Date.now(),
    );

    const result = await runCliInProcess(['deliveries', ...stack.stackArgs, '--failed']);

    expect(result.stdout).toContain(`subscriber automation is disabled since`);
    expect(result.stdout).toContain(
      `(meal-notifier replay --stack ${STACK_NAME} --dead-letters enables it again)`,
    );
  });
});
