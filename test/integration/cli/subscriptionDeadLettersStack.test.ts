// What SNS could not deliver to a subscription, on a deployed stack (SQS and SNS mocked): `deliveries
// --stack` lists the SNS dead-letter queue with the subscriber each message was for as far as it tells
// (an e-mail notification names its subscription, a raw one only its event), and `replay --stack
// --dead-letters` puts a subscriber queue's own back on that queue alone, never through the topic; for an
// e-mail subscriber, it publishes each undelivered e-mail again as a re-send that only its own
// subscription's policy lets in, and deletes it once SNS accepted it.
import {
  GetSubscriptionAttributesCommand,
  ListSubscriptionsByTopicCommand,
  PublishBatchCommand,
  PublishCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileFilterPolicy, withResendBranch } from '../../../shared/contracts/snsFilterPolicy.js';
import { NORTH_CANTEEN_ID, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import {
  ALARM_TOPIC_ARN,
  type DeployedStackFixture,
  deployedStackFixture,
  QUEUE_URLS,
  SUBSCRIPTION_DEAD_LETTER_QUEUE_URL,
  stubStackEnv,
  TOPIC_ARN,
} from '../../support/deployedStackFixture.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';
import { makeEvent, newOrderUuid } from '../../support/stateStoreConformance.js';

const sqs = mockClient(SQSClient);
const sns = mockClient(SNSClient);
afterAll(() => {
  sqs.restore();
  sns.restore();
});
let stack: DeployedStackFixture;

// automation takes order.created; kitchen-north everything at the North canteen.
const forAutomation = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
const atNorthCanteen = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
atNorthCanteen.data.order.establishment = { uuid: NORTH_CANTEEN_ID, name: 'North canteen' };
const OFFICE_SUBSCRIPTION = `${TOPIC_ARN}:0f1e2d3c-office`;
const ALARM_SUBSCRIPTION = `${ALARM_TOPIC_ARN}:9a8b7c6d-oncall`;
const rawAttributes = { type: { DataType: 'String', StringValue: 'order.created' } };

/** The JSON notification SNS dead-letters for a subscription without raw delivery (e-mail). */
function envelope(topicArn: string, subscriptionArn: string, subject: string, type: string): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: '5e1c0a2b-0000-4000-8000-000000000001',
    TopicArn: topicArn,
    Subject: subject,
    Message: 'Order ORD-1 was canceled.',
    Timestamp: '2026-11-22T08:00:00.000Z',
    SignatureVersion: '1',
    Signature: 'c2lnbmF0dXJl',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000.pem',
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${subscriptionArn}`,
    MessageAttributes: { type: { Type: 'String', Value: type } },
  });
}

beforeAll(async () => {
  stack = await deployedStackFixture();
});

afterAll(async () => {
  await stack.close();
});

beforeEach(() => {
  stubStackEnv(stack);
  sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { ApproximateNumberOfMessages: '0' } });
  sqs.on(ReceiveMessageCommand).resolves({ Messages: [] });
  sqs
    .on(ReceiveMessageCommand, { QueueUrl: SUBSCRIPTION_DEAD_LETTER_QUEUE_URL })
    .resolvesOnce({
      Messages: [
        {
          MessageId: 'm-raw',
          ReceiptHandle: 'h-raw',
          Body: JSON.stringify(forAutomation),
          Attributes: { SentTimestamp: String(Date.parse('2026-11-22T08:00:01.000Z')) },
          MessageAttributes: rawAttributes,
        },
        {
          MessageId: 'm-both',
          ReceiptHandle: 'h-both',
          Body: JSON.stringify(atNorthCanteen),
          MessageAttributes: rawAttributes,
        },
        {
          MessageId: 'm-office',
          ReceiptHandle: 'h-office',
          Body: envelope(TOPIC_ARN, OFFICE_SUBSCRIPTION, 'Order ORD-1 canceled', 'order.canceled'),
        },
        {
          MessageId: 'm-alarm',
          ReceiptHandle: 'h-alarm',
          Body: envelope(ALARM_TOPIC_ARN, ALARM_SUBSCRIPTION, 'ALARM: poller errors', 'alarm'),
        },
      ],
    })
    .resolves({ Messages: [] });
  sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
  sqs.on(SendMessageCommand).resolves({ MessageId: 'copy' });
  sqs.on(DeleteMessageCommand).resolves({});
  sns.on(ListSubscriptionsByTopicCommand, { TopicArn: TOPIC_ARN }).resolves({
    Subscriptions: [
      {
        SubscriptionArn: OFFICE_SUBSCRIPTION,
        Protocol: 'email',
        Endpoint: 'office@example.org',
        TopicArn: TOPIC_ARN,
      },
    ],
  });
  sns.on(ListSubscriptionsByTopicCommand, { TopicArn: ALARM_TOPIC_ARN }).resolves({
    Subscriptions: [
      {
        SubscriptionArn: ALARM_SUBSCRIPTION,
        Protocol: 'email',
        Endpoint: 'oncall@example.org',
        TopicArn: ALARM_TOPIC_ARN,
      },
    ],
  });
});

afterEach(() => {
  sqs.reset();
  sns.reset();
  vi.unstubAllEnvs();
});

describe('meal-notifier deliveries --stack, the SNS dead-letter queue', () => {
  it('names the subscriber each message was for as far as it tells, and leaves them on the queue', async () => {
    const result = await runCliInProcess(['deliveries', ...stack.stackArgs, '--failed', '--json']);

    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as Record<string, unknown>[];
    const byMessage = Object.fromEntries(entries.map((entry) => [entry.messageId, entry]));
    expect(byMessage['m-raw']).toMatchObject({
      subscriberId: 'automation',
      eventId: forAutomation.id,
      eventType: 'order.created',
      kind: 'not delivered by SNS',
      reason: expect.stringContaining('could not put it on the queue of automation'),
      deadLetteredAt: '2026-11-22T08:00:01.000Z',
    });
    // Raw delivery names no subscription: the subscribers whose filter matches, and that SNS does not say.
    expect(byMessage['m-both']).toMatchObject({
      subscriberId: 'automation or kitchen-north',
      eventId: atNorthCanteen.id,
      reason: expect.stringContaining('does not say which'),
    });
    // An e-mail notification names its subscription: its address, and so its subscriber.
    expect(byMessage['m-office']).toMatchObject({
      subscriberId: 'office',
      eventType: 'order.canceled',
      reference: 'Order ORD-1 canceled',
      reason:
        'SNS could not e-mail office@example.org; replay --subscriber office --dead-letters re-sends it to that address alone',
      message: 'Order ORD-1 was canceled.',
    });
    expect(byMessage['m-alarm']).toMatchObject({
      subscriberId: 'alarm e-mail',
      reason: expect.stringContaining('alarm notification to oncall@example.org'),
    });
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityBatchCommand, {
      QueueUrl: SUBSCRIPTION_DEAD_LETTER_QUEUE_URL,
    });
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageBatchCommand);
  });

  it('shows them in the table with the rest of the dead letters', async () => {
    const result = await runCliInProcess(['deliveries', ...stack.stackArgs, '--failed']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('not delivered by SNS: SNS could not put it on the queue of automation');
    expect(result.stdout).toContain('\n4 dead\n');
  });
});

describe('meal-notifier replay --stack --dead-letters, the SNS dead-letter queue', () => {
  it("puts on automation's queue alone what SNS could not put there, as SNS left it, then deletes it", async () => {
    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'automation',
      '--dead-letters',
    ]);

    expect(result.code).toBe(0);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      {
        // The webhook channel's shared queue, named for automation and in its group: no split among others.
        QueueUrl: QUEUE_URLS.automation.queueUrl,
        MessageBody: JSON.stringify(forAutomation),
        MessageGroupId: 'automation',
        MessageAttributes: {
          ...rawAttributes,
          subscriber: { DataType: 'String', StringValue: 'automation' },
        },
        DelaySeconds: 0,
      },
    ]);
    expect(sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: SUBSCRIPTION_DEAD_LETTER_QUEUE_URL, ReceiptHandle: 'h-raw' },
    ]);
    // Nothing goes through the topic: it would reach every matching subscription again.
    expect(sns).not.toHaveReceivedCommand(PublishCommand);
    expect(sns).not.toHaveReceivedCommand(PublishBatchCommand);
    expect(sqs).not.toHaveReceivedCommandWith(SendMessageBatchCommand, {
      QueueUrl: QUEUE_URLS['kitchen-north'].queueUrl,
    });
    expect(result.stderr).toContain(
      '1 dead letter moved back (1 of them SNS could not put on its queue) to automation',
    );
    // The message two queues' filters match stays, with why; so do the e-mails, given back at once.
    expect(result.stderr).toMatch(
      new RegExp(
        `message m-both \\(event ${atNorthCanteen.id}\\) left on the SNS dead-letter queue: .*does not say which`,
      ),
    );
    const givenBack = sqs
      .commandCalls(ChangeMessageVisibilityBatchCommand)
      .filter((call) => call.args[0].input.QueueUrl === SUBSCRIPTION_DEAD_LETTER_QUEUE_URL)
      .flatMap((call) => call.args[0].input.Entries ?? [])
      .map((entry) => entry.ReceiptHandle);
    expect(givenBack.sort()).toEqual(['h-alarm', 'h-both', 'h-office']);
  });
});

describe('meal-notifier replay --stack --dead-letters of an e-mail subscriber', () => {
  const officePolicy = compileFilterPolicy({ types: ['order.canceled'] }, undefined, [], 900);
  const RESEND_TO_OFFICE = 'resend-to:office:events:office@example.org';
  const deployed = (filterPolicy: unknown) =>
    sns.on(GetSubscriptionAttributesCommand, { SubscriptionArn: OFFICE_SUBSCRIPTION }).resolves({
      Attributes: {
        SubscriptionArn: OFFICE_SUBSCRIPTION,
        Endpoint: 'office@example.org',
        Protocol: 'email',
        FilterPolicy: JSON.stringify(filterPolicy),
      },
    });
  const replayOffice = () =>
    runCliInProcess(['replay', ...stack.stackArgs, '--subscriber', 'office', '--dead-letters']);
  const givenBack = () =>
    sqs
      .commandCalls(ChangeMessageVisibilityBatchCommand)
      .filter((call) => call.args[0].input.QueueUrl === SUBSCRIPTION_DEAD_LETTER_QUEUE_URL)
      .flatMap((call) => call.args[0].input.Entries ?? [])
      .map((entry) => entry.ReceiptHandle)
      .sort();

  it('publishes the undelivered e-mail again, same subject and text, to that address alone, then deletes it', async () => {
    deployed(
      withResendBranch(officePolicy, {
        subscriberId: 'office',
        kind: 'events',
        address: 'office@example.org',
      }).policy,
    );
    sns.on(PublishCommand).resolves({ MessageId: 'resent' });

    const result = await replayOffice();

    expect(result.code).toBe(0);
    const published = sns.commandCalls(PublishCommand);
    expect(published.map((call) => call.args[0].input)).toEqual([
      {
        TopicArn: TOPIC_ARN,
        Subject: 'Order ORD-1 canceled',
        Message: 'Order ORD-1 was canceled.',
        // Only office@'s own subscription has a branch that lets these in (snsFilterPolicy.ts).
        MessageAttributes: {
          type: { DataType: 'String', StringValue: 'email.resend' },
          audience: { DataType: 'String', StringValue: RESEND_TO_OFFICE },
        },
      },
    ]);
    const deleted = sqs.commandCalls(DeleteMessageCommand);
    expect(deleted.map((call) => call.args[0].input)).toEqual([
      { QueueUrl: SUBSCRIPTION_DEAD_LETTER_QUEUE_URL, ReceiptHandle: 'h-office' },
    ]);
    // Deleted only once SNS accepted the copy.
    expect(published[0]?.calledBefore(deleted[0] ?? published[0])).toBe(true);
    // The queue subscribers' and the alarm's stay, given back at once; nothing goes on a queue.
    expect(givenBack()).toEqual(['h-alarm', 'h-both', 'h-raw']);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(result.stderr).toContain(
      '1 undelivered e-mail re-sent to office, each to its own recipient alone: see meal-notifier deliveries --stack',
    );
  });

  it('keeps a message SNS refused to publish again, in one line naming the subscriber, and fails', async () => {
    deployed(
      withResendBranch(officePolicy, {
        subscriberId: 'office',
        kind: 'events',
        address: 'office@example.org',
      }).policy,
    );
    sns.on(PublishCommand).rejects(
      Object.assign(new Error('User is not authorized to perform SNS:Publish'), {
        name: 'AuthorizationError',
      }),
    );

    const result = await replayOffice();

    expect(result.code).toBe(1);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(givenBack()).toEqual(['h-alarm', 'h-both', 'h-office', 'h-raw']);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toContain(
      '0 undelivered e-mails re-sent to office, each to its own recipient alone: see meal-notifier deliveries --stack NotifierTest',
    );
    expect(lines.filter((line) => line.includes('m-office'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^message m-office \\("Order ORD-1 canceled"\\) for office \\(office@example\\.org\\) left on the SNS dead-letter queue: the re-send was not published: cannot reach the event topic ${TOPIC_ARN}`,
        ),
      ),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('keeps the message of a subscription deployed without the resend branch, saying to deploy first', async () => {
    deployed(officePolicy);

    const result = await replayOffice();

    expect(result.code).toBe(1);
    expect(sns).not.toHaveReceivedCommand(PublishCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(result.stderr).toMatch(
      /message m-office \("Order ORD-1 canceled"\) for office \(office@example\.org\) left on the SNS dead-letter queue: its subscription's filter policy has no branch for re-sent e-mail .*deploy the stack with this version/,
    );
  });

  it("leaves another subscriber's e-mail alone, even at the same address", async () => {
    deployed(
      withResendBranch(officePolicy, {
        subscriberId: 'kitchen-mail',
        kind: 'events',
        address: 'office@example.org',
      }).policy,
    );

    const result = await replayOffice();

    expect(result.code).toBe(0);
    expect(sns).not.toHaveReceivedCommand(PublishCommand);
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(result.stderr).toContain('0 undelivered e-mails re-sent to office');
  });

  it('refuses to replay events from the table to an e-mail subscriber: only what SNS could not deliver is sent again', async () => {
    const result = await runCliInProcess([
      'replay',
      ...stack.stackArgs,
      '--subscriber',
      'office',
      '--since',
      '1h',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('only what SNS could not deliver can be sent again (--dead-letters)');
    expect(sns).not.toHaveReceivedCommand(PublishCommand);
  });
});
