// The upgrade from a stack with a queue pair per Slack or webhook subscriber (docs/aws.md, "Upgrading from
// per-subscriber queues"), as far as it can run here: the new template has none of the old queues or their
// outputs (CloudFormation deletes them with what is on them), the state table that holds every event stays
// (retained), and what step 2 exported from the old dead-letter queues (`deliveries --stack --failed
// --json`: subscriber and event id) is sent again by step 4's command, from the table, to the new channel
// queue for that subscriber alone.
import { SendMessageBatchCommand, type SendMessageBatchCommandInput, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exampleConfig, notifierApp, resourcesOfType } from '../../infra/support/notifierApp.js';
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
let stack: DeployedStackFixture;
// Left on automation's old dead-letter queue when the upgrade began (automation takes order.created).
const stranded = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');

beforeAll(async () => {
  stack = await deployedStackFixture();
  await stack.store.commitChange(NORTH_SCHOOL_ID, {
    snapshot: makeSnapshot(stranded.subject),
    events: [stranded],
  });
});

afterAll(async () => {
  sqs.restore();
  vi.unstubAllEnvs();
  await stack.close();
});

describe('the upgrade from per-subscriber queues', () => {
  it('removes every subscriber’s own queue pair and output, and keeps the state table that holds the events', () => {
    const config = exampleConfig();
    const { template } = notifierApp(config);
    const resources = (template.toJSON() as { Resources: Record<string, { Type: string }> }).Resources;
    const outputs = Object.keys((template.toJSON() as { Outputs?: Record<string, unknown> }).Outputs ?? {});
    for (const subscriber of config.subscribers.filter(({ type }) => type !== 'email')) {
      const id = String(subscriber.id);
      const compact = id.replace(/[^A-Za-z0-9]/g, '');
      // The old pairs were Deliveries/<id>/Queue and Deliveries/<id>/DeadLetterQueue.
      expect(
        Object.keys(resources).filter((id) => id.startsWith(`Deliveries${compact}`)),
        id,
      ).toEqual([]);
      expect(outputs).not.toContain(`Queue${compact}`);
      expect(outputs).not.toContain(`DeadLetterQueue${compact}`);
    }
    const [, table] = resourcesOfType(template, 'AWS::DynamoDB::Table')[0] ?? [];
    // Kept on an update that removes it, and on the stack's deletion: never deleted by a deployment.
    expect(table?.UpdateReplacePolicy).toBe('Retain');
    expect(table?.DeletionPolicy).toMatch(/^Retain/);
  });

  it('sends a dead letter exported before the deploy again, from the table, to the new queue for its subscriber alone', async () => {
    stubStackEnv(stack);
    sqs.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommandInput) => ({
      Successful: (input.Entries ?? []).map(({ Id }) => ({
        Id,
        MessageId: `sqs-${Id}`,
        MD5OfMessageBody: '',
      })),
      Failed: [],
    }));
    // Step 2's file, as `deliveries --stack --failed --json` wrote it on the old version.
    const exported = [{ subscriberId: 'automation', eventId: stranded.id, kind: 'dead-lettered' }];

    for (const { subscriberId, eventId } of exported) {
      const result = await runCliInProcess([
        'replay',
        ...stack.stackArgs,
        '--subscriber',
        subscriberId,
        '--event',
        eventId,
      ]);
      expect(result.code, result.stderr).toBe(0);
    }

    const sent = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.QueueUrl).toBe(QUEUE_URLS.automation.queueUrl);
    expect(
      sent[0]?.Entries?.map((entry) => [entry.MessageGroupId, entry.MessageAttributes?.subscriber]),
    ).toEqual([['automation', { DataType: 'String', StringValue: 'automation' }]]);
    expect(JSON.parse(sent[0]?.Entries?.[0]?.MessageBody ?? '{}')).toMatchObject({ id: stranded.id });
  });
});
