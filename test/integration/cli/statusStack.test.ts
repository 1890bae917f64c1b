// `meal-notifier status --stack`, run in-process against a state table on DynamoDB Local with SQS and
// CloudFormation mocked: the organizations' poll state and recent events from the table, each channel's
// queued deliveries (its one shared queue, counted once and labelled as the channel's, never as a
// subscriber's), each subscriber's own dead letters (read by attribute from its channel's shared
// dead-letter queue), a disabled subscriber, the publisher's failure queue,
// and a queue that does not answer, named without hiding the rest. The exit code is the health verdict; a
// stack deployed with polling off does not count its organizations.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  ChangeMessageVisibilityBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelOutputKeys, STACK_OUTPUT_KEYS } from '../../../shared/contracts/stackOutputKeys.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { exampleConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import {
  type DeployedStackFixture,
  deployedStackFixture,
  FAILURE_QUEUE_URL,
  QUEUE_URLS,
  STACK_NAME,
  stubStackEnv,
} from '../../support/deployedStackFixture.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../../support/stateStoreConformance.js';

const sqs = mockClient(SQSClient);
const cloudFormation = mockClient(CloudFormationClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  sqs.restore();
  cloudFormation.restore();
});
let stack: DeployedStackFixture;

/** Messages per queue URL: [visible, in flight]. */
const DEPTHS: Record<string, [number, number]> = {
  [QUEUE_URLS.automation.queueUrl]: [3, 1],
  [QUEUE_URLS['kitchen-north'].queueUrl]: [0, 0],
  [FAILURE_QUEUE_URL]: [1, 0],
};

/**
 * The dead letters on each channel's shared dead-letter queue, by subscriber: counted by reading them, since
 * SQS counts no attribute. A neighbour's letter on the webhook one is not automation's.
 */
const DEAD_LETTERS: Record<string, string[]> = {
  [QUEUE_URLS.automation.deadLetterQueueUrl]: ['automation', 'partner-hooks', 'automation'],
  [QUEUE_URLS['kitchen-north'].deadLetterQueueUrl]: ['kitchen-north'],
};

function deadLetterMessages(url: string): Message[] {
  return (DEAD_LETTERS[url] ?? []).map((subscriber, index) => ({
    MessageId: `${url}-${index}`,
    ReceiptHandle: `h-${index}`,
    Body: '{}',
    MessageAttributes: { subscriber: { DataType: 'String', StringValue: subscriber } },
  }));
}

beforeAll(async () => {
  stack = await deployedStackFixture();
  const now = Date.now();
  await stack.store.savePollState({
    ...initialPollState(NORTH_SCHOOL_ID),
    health: {
      lastSuccessAt: now - 60_000,
      lastAttemptAt: now - 10_000,
      consecutiveFailures: 2,
      lastError: 'North School: token rejected (401)',
      tokenRejectedAt: null,
    },
  });
  for (const type of ['order.created', 'order.canceled'] as const) {
    const snapshot = makeSnapshot(newOrderUuid());
    await stack.store.commitChange(NORTH_SCHOOL_ID, {
      snapshot,
      events: [makeEvent(NORTH_SCHOOL_ID, snapshot.orderUuid, type)],
    });
  }
  await stack.subscriberStatus.disableSubscriber('kitchen-north', 'Slack answered channel_is_archived', now);
});

afterAll(async () => {
  await stack.close();
});

beforeEach(() => {
  stubStackEnv(stack);
  sqs.on(GetQueueAttributesCommand).callsFake(({ QueueUrl }: { QueueUrl: string }) => {
    const [visible, inFlight] = DEPTHS[QueueUrl] ?? [0, 0];
    return {
      Attributes: {
        ApproximateNumberOfMessages: String(visible),
        ApproximateNumberOfMessagesNotVisible: String(inFlight),
      },
    };
  });
  // Each read of a dead-letter queue gets its letters; the reader stops at the first it has seen before.
  sqs
    .on(ReceiveMessageCommand)
    .callsFake(({ QueueUrl }: { QueueUrl: string }) => ({ Messages: deadLetterMessages(QueueUrl) }));
  sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
});

afterEach(() => {
  sqs.reset();
  cloudFormation.reset();
  vi.unstubAllEnvs();
});

/** One table row with these cells (regular expressions), whatever the padding. */
function row(...cells: string[]): RegExp {
  return new RegExp(`│ ${cells.join('\\s*│ ')}\\s*│`);
}

describe('meal-notifier status --stack', () => {
  it("shows the organizations' poll state from the table and the dead deliveries from the queues", async () => {
    const result = await runCliInProcess(['status', ...stack.stackArgs]);

    expect(result.stderr).toBe('');
    // Polled a minute ago, within what its interval of 60 s allows; but dead letters and a disabled subscriber.
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Stack: ${STACK_NAME} (state table ${stack.table.tableName})`);
    expect(result.stdout).toMatch(row('North School', '\\S+ \\S+Z \\([^)]+ ago\\)', '2', '2', '2', '2'));
    // The last error on a line of its own under the organization's row.
    expect(result.stdout).toMatch(/│ last error: North School: token rejected \(401\)\s*│/);
    // Its own dead letters; what waits on the shared queue is the channel's, shown once, as the channel's.
    expect(result.stdout).toMatch(row('automation', 'webhook', 'on webhook', '2', 'enabled'));
    expect(result.stdout).toMatch(row('kitchen-north', 'slack', 'on slack', '1', 'disabled since \\S+'));
    expect(result.stdout).toMatch(row('Channel queue', 'Queued', 'Shared by'));
    expect(result.stdout).toMatch(row('webhook', '4', 'automation'));
    expect(result.stdout).toMatch(row('slack', '0', 'kitchen-north'));
    expect(result.stdout).not.toMatch(row('automation', 'webhook', '4'));
    // SNS e-mails the e-mail subscriber: no queue to count.
    expect(result.stdout).toMatch(row('office', 'email', '-', '-', 'enabled'));
    expect(result.stdout).toContain(
      `subscriber kitchen-north is disabled: Slack answered channel_is_archived (meal-notifier replay --stack ${STACK_NAME} to it enables it again)`,
    );
    expect(result.stdout).toContain(
      `\nsubscriber automation has 2 dead letters: see meal-notifier deliveries --stack ${STACK_NAME} --failed\n`,
    );
    expect(result.stdout).toContain(
      `\nsubscriber kitchen-north has 1 dead letter: see meal-notifier deliveries --stack ${STACK_NAME} --failed\n`,
    );
    expect(result.stdout).not.toMatch(/^North School: /m);
    expect(result.stdout).toContain(
      `1 stream batch the publisher gave up on: their events were recorded but not published; see meal-notifier republish --stack ${STACK_NAME}`,
    );
    // Nothing is received from the delivery queues, where it would count as a delivery attempt; the dead
    // letters read to count them are given back at once.
    for (const { queueUrl } of Object.values(QUEUE_URLS)) {
      expect(sqs).not.toHaveReceivedCommandWith(ReceiveMessageCommand, { QueueUrl: queueUrl });
    }
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityBatchCommand, {
      QueueUrl: QUEUE_URLS.automation.deadLetterQueueUrl,
      Entries: [0, 1, 2].map((index) => ({
        Id: `m${index}`,
        ReceiptHandle: `h-${index}`,
        VisibilityTimeout: 0,
      })),
    });
  });

  it('gives the same report as JSON', async () => {
    const result = await runCliInProcess(['status', ...stack.stackArgs, '--json']);

    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      stack: STACK_NAME,
      pollingEnabled: true,
      publisherFailures: 1,
      problems: [],
      health: {
        healthy: false,
        problems: [
          'subscriber automation has 2 dead letters: see meal-notifier deliveries --stack NotifierTest --failed',
          expect.stringMatching(/^subscriber kitchen-north is disabled: Slack answered channel_is_archived/),
          expect.stringMatching(/^subscriber kitchen-north has 1 dead letter: /),
          expect.stringMatching(/^1 stream batch the publisher gave up on/),
        ],
      },
      organizations: [{ id: NORTH_SCHOOL_ID, consecutiveFailures: 2, snapshots: 2, eventsLastDay: 2 }],
    });
    expect(report.subscribers).toEqual([
      expect.objectContaining({
        id: 'automation',
        queued: null,
        queuedOnChannel: 'webhook',
        dead: 2,
        disabled: null,
      }),
      expect.objectContaining({
        id: 'kitchen-north',
        queued: null,
        queuedOnChannel: 'slack',
        dead: 1,
        disabled: expect.any(Object),
      }),
      expect.objectContaining({ id: 'office', queued: null, dead: null }),
    ]);
    expect(report.channels).toEqual([
      { channel: 'webhook', subscribers: ['automation'], queued: 4 },
      { channel: 'slack', subscribers: ['kitchen-north'], queued: 0 },
    ]);
  });

  it("counts a shared queue once, as its channel's, and gives each subscriber of it only its own dead letters", async () => {
    const config = exampleConfig();
    config.subscribers = [
      ...(config.subscribers ?? []),
      {
        id: 'partner-hooks',
        type: 'webhook',
        url: 'https://partner.example.org/hooks',
        secret: { env: 'PARTNER_SECRET' },
      },
    ];
    const configPath = join(stack.dir, 'two-webhooks.json');
    await writeFile(configPath, JSON.stringify(config));

    const result = await runCliInProcess([
      'status',
      '--config',
      configPath,
      '--stack',
      STACK_NAME,
      '--stack-outputs',
      stack.outputsPath,
    ]);

    // Before, both rows showed the webhook queue's 4 as their own: 8 deliveries where 4 wait.
    expect(result.stdout).toMatch(row('automation', 'webhook', 'on webhook', '2', 'enabled'));
    expect(result.stdout).toMatch(row('partner-hooks', 'webhook', 'on webhook', '1', 'enabled'));
    expect(result.stdout).toMatch(row('webhook', '4', 'automation, partner-hooks'));
    expect(result.stdout.match(/│ 4\s*│/g)).toHaveLength(1);
    // The channel's queue is asked once, however many subscribers share it.
    expect(
      sqs
        .commandCalls(GetQueueAttributesCommand)
        .filter((call) => call.args[0].input.QueueUrl === QUEUE_URLS.automation.queueUrl),
    ).toHaveLength(1);
  });

  it('does not count the organizations of a stack deployed with polling off', async () => {
    const outputs = JSON.parse(await readFile(stack.outputsPath, 'utf8'));
    outputs[STACK_NAME][STACK_OUTPUT_KEYS.polling] = 'off';
    const outputsPath = join(stack.dir, 'polling-off.json');
    await writeFile(outputsPath, JSON.stringify(outputs));
    // Never polled: with polling on, a failing organization.
    const config = exampleConfig();
    config.organizations.push({
      id: '5e1a0000-0000-4000-8000-00000000000b',
      name: 'South Academy',
      token: { env: 'SOUTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
    });
    const configPath = join(stack.dir, 'two-organizations.json');
    await writeFile(configPath, JSON.stringify(config));
    const args = ['status', '--config', configPath, '--stack', STACK_NAME];

    const on = await runCliInProcess([...args, '--stack-outputs', stack.outputsPath]);
    expect(on.stdout).toMatch(/^South Academy: never polled: /m);

    const off = await runCliInProcess([...args, '--stack-outputs', outputsPath]);
    expect(off.stdout).toContain(
      `polling is off on stack ${STACK_NAME} (deployed with -c polling=off): its organizations are not counted as failing`,
    );
    expect(off.stdout).not.toMatch(/^South Academy: /m);
    // What is dead still counts.
    expect(off.stdout).toMatch(/^subscriber kitchen-north is disabled: /m);
    expect(off.code).toBe(1);
  });

  it("finds the stack's resources in its CloudFormation outputs when no outputs file is given", async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: STACK_NAME }).resolves({
      Stacks: [
        {
          StackName: STACK_NAME,
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [
            { OutputKey: 'StateTableName', OutputValue: stack.table.tableName },
            // The webhook channel's queues; none for Slack.
            { OutputKey: channelOutputKeys('webhook').queue, OutputValue: QUEUE_URLS.automation.queueUrl },
            {
              OutputKey: channelOutputKeys('webhook').deadLetterQueue,
              OutputValue: QUEUE_URLS.automation.deadLetterQueueUrl,
            },
          ],
        },
      ],
    });

    const result = await runCliInProcess(['status', '--config', stack.configPath, '--stack', STACK_NAME]);

    expect(cloudFormation).toHaveReceivedCommandWith(DescribeStacksCommand, { StackName: STACK_NAME });
    expect(result.stdout).toMatch(row('automation', 'webhook', 'on webhook', '2', 'enabled'));
    expect(result.stdout).toMatch(row('webhook', '4', 'automation'));
    // What the outputs do not name is a gap in the report, said as such, and the exit code says so too.
    expect(result.stdout).toMatch(row('kitchen-north', 'slack', '\\?', '\\?', 'disabled since \\S+'));
    expect(result.stdout).toContain(
      `not known: stack ${STACK_NAME} has no queue outputs for subscriber kitchen-north`,
    );
    expect(result.code).toBe(1);
  });

  it('names a stack CloudFormation does not know, with the region it looked in', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(
        Object.assign(new Error(`Stack with id ${STACK_NAME} does not exist`), { name: 'ValidationError' }),
      );

    const result = await runCliInProcess(['status', '--config', stack.configPath, '--stack', STACK_NAME]);

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `meal-notifier: no stack ${STACK_NAME} in region us-east-1: check --stack and --region (or AWS_REGION)\n`,
    );
  });

  it('still shows the table when a queue refuses, and names that queue and what to check', async () => {
    sqs.on(GetQueueAttributesCommand, { QueueUrl: QUEUE_URLS.automation.queueUrl }).rejects(
      Object.assign(new Error('not authorized to perform sqs:GetQueueAttributes'), {
        name: 'AccessDenied',
      }),
    );

    const result = await runCliInProcess(['status', ...stack.stackArgs]);

    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(row('North School', '.+', '2', '2', '2', '2'));
    // The channel's count is the gap; automation's own dead letters are still read.
    expect(result.stdout).toMatch(row('automation', 'webhook', 'on webhook', '2', 'enabled'));
    expect(result.stdout).toMatch(row('webhook', '\\?', 'automation'));
    expect(result.stdout).toMatch(row('kitchen-north', 'slack', 'on slack', '1', 'disabled since \\S+'));
    expect(result.stdout).toContain(
      `not known: cannot reach the queue of automation (${QUEUE_URLS.automation.queueUrl}): AccessDenied: not authorized to perform sqs:GetQueueAttributes; your AWS identity is not allowed to`,
    );
  });

  it('refuses --stack-outputs without --stack', async () => {
    const result = await runCliInProcess([
      'status',
      '--config',
      stack.configPath,
      '--stack-outputs',
      stack.outputsPath,
    ]);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe('meal-notifier: --region and --stack-outputs need --stack NAME\n');
  });
});
