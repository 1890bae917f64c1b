// The tick the poller sends after each cycle: one SendMessage to the tick queue, its body naming the
// organization and the due time, delayed by the whole seconds until then (SQS's 0 to 900).
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { TickQueue, TickSchema } from '../../../functions/shared/tickQueue.js';
import { queueUrl } from '../../support/lambdaRecords.js';

const sqs = mockClient(SQSClient);
const QUEUE_URL = queueUrl('ticks');
const ORGANIZATION = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
const NOW = Date.parse('2026-11-20T10:00:00Z');

afterEach(() => {
  sqs.reset();
});

describe('TickQueue', () => {
  it('sends one message to the tick queue, delayed until the cycle is due, rounded up to whole seconds', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const ticks = new TickQueue(QUEUE_URL, new SQSClient({ region: 'us-east-1' }));
    const delay = await ticks.send({ organizationId: ORGANIZATION, dueAt: NOW + 12_300 }, NOW);
    expect(delay).toBe(13);
    expect(sqs).toHaveReceivedCommandTimes(SendMessageCommand, 1);
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: QUEUE_URL,
      MessageBody: JSON.stringify({ organizationId: ORGANIZATION, dueAt: NOW + 12_300 }),
      DelaySeconds: 13,
    });
  });

  it('sends a tick already due with no delay, and one due beyond 15 minutes with the longest delay SQS allows', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const ticks = new TickQueue(QUEUE_URL, new SQSClient({ region: 'us-east-1' }));
    expect(await ticks.send({ organizationId: ORGANIZATION, dueAt: NOW - 5_000 }, NOW)).toBe(0);
    expect(await ticks.send({ organizationId: ORGANIZATION, dueAt: NOW + 3_600_000 }, NOW)).toBe(900);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.DelaySeconds)).toEqual([
      0, 900,
    ]);
  });

  it('lets the SQS error through, for the caller to log', async () => {
    sqs
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const ticks = new TickQueue(QUEUE_URL, new SQSClient({ region: 'us-east-1' }));
    await expect(ticks.send({ organizationId: ORGANIZATION, dueAt: NOW }, NOW)).rejects.toThrow('throttled');
  });

  it('writes a body its own schema reads back', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    await new TickQueue(QUEUE_URL, new SQSClient({ region: 'us-east-1' })).send(
      { organizationId: ORGANIZATION, dueAt: NOW },
      NOW,
    );
    const body = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input.MessageBody ?? '';
    expect(TickSchema.parse(JSON.parse(body))).toEqual({ organizationId: ORGANIZATION, dueAt: NOW });
  });
});
