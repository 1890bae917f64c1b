// `meal-notifier status --stack` as a new user tries it: a real process against a state table on DynamoDB
// Local, reached through the endpoint override docs/aws.md documents (AWS_ENDPOINT_URL_DYNAMODB), with the
// stack's outputs from a file and no SQS to answer. The table's part (poll state, recent events, a disabled
// subscriber) is shown; the queues' counts are marked unknown, each with the queue and what to check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelOutputKeys, STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { initialPollState } from '../../shared/store/pollState.js';
import { NORTH_SCHOOL_ID } from '../support/configFixtures.js';
import {
  type DeployedStackFixture,
  deployedStackFixture,
  STACK_NAME,
} from '../support/deployedStackFixture.js';
import { closedPort } from '../support/loopbackServer.js';
import { runCli } from '../support/runCli.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../support/stateStoreConformance.js';

let stack: DeployedStackFixture;
let sqsEndpoint: string;

beforeAll(async () => {
  // Where SQS would be: nothing listens there.
  sqsEndpoint = `http://127.0.0.1:${await closedPort()}`;
  const queue = (name: string) => `${sqsEndpoint}/000000000000/${name}`;
  stack = await deployedStackFixture({
    [STACK_OUTPUT_KEYS.publisherFailureQueue]: queue('failures'),
    [channelOutputKeys('webhook').queue]: queue('webhook'),
    [channelOutputKeys('webhook').deadLetterQueue]: queue('webhook-dlq'),
    [channelOutputKeys('slack').queue]: queue('slack'),
    [channelOutputKeys('slack').deadLetterQueue]: queue('slack-dlq'),
    [STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue]: queue('sns-dlq'),
  });
  await stack.store.savePollState({
    ...initialPollState(NORTH_SCHOOL_ID),
    health: {
      lastSuccessAt: Date.now() - 2 * 3_600_000,
      lastAttemptAt: Date.now() - 60_000,
      consecutiveFailures: 3,
      lastError: 'North School: API answered 500',
      tokenRejectedAt: null,
    },
  });
  const snapshot = makeSnapshot(newOrderUuid());
  await stack.store.commitChange(NORTH_SCHOOL_ID, {
    snapshot,
    events: [makeEvent(NORTH_SCHOOL_ID, snapshot.orderUuid, 'order.created')],
  });
  await stack.subscriberStatus.disableSubscriber(
    'automation',
    'https://hooks.example.test answered 410',
    Date.now(),
  );
});

afterAll(async () => {
  await stack?.close();
});

describe('meal-notifier status --stack (real process, DynamoDB Local)', () => {
  it('shows the poll state and disabled subscribers from the table, and names the queues it could not reach', async () => {
    const result = await runCli(['status', ...stack.stackArgs], {
      ...stack.env,
      AWS_ENDPOINT_URL_SQS: sqsEndpoint,
      // One attempt per call: the SDK's retries would only repeat the refusal.
      AWS_MAX_ATTEMPTS: '1',
    });

    expect(result.stdout).toContain(`Stack: ${STACK_NAME} (state table ${stack.table.tableName})`);
    expect(result.stdout).toMatch(/│ North School │ \S+ \S+Z \(2 h ago\)\s+│ 3\s+│ 1\s+│ 1\s+│ 1\s+│/);
    expect(result.stdout).toMatch(/│ last error: North School: API answered 500\s+│/);
    expect(result.stdout).toMatch(/│ automation\s+│ webhook │ on webhook │ \?\s+│ disabled since \S+\s+│/);
    expect(result.stdout).toMatch(/│ webhook\s+│ \?\s+│ automation\s+│/);
    expect(result.stdout).toMatch(/│ office\s+│ email\s+│ -\s+│ -\s+│ enabled\s+│/);
    expect(result.stdout).toContain(
      'subscriber automation is disabled: https://hooks.example.test answered 410',
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `not known: cannot reach the queue of automation \\(${sqsEndpoint}/000000000000/webhook\\): .*ECONNREFUSED.*; nothing answered: check your network, or AWS_ENDPOINT_URL_SQS if you set it`,
      ),
    );
    expect(result.stdout).toContain("not known: cannot reach the publisher's failure queue");
    // Polled successfully 2 h ago, every 60 s: failing, with its last error.
    expect(result.stdout).toMatch(
      /\nNorth School: last successful poll 2 h ago, over the 2 min its poll interval of 60 s allows; 3 failed cycles in a row, the last: API answered 500\n/,
    );
    // An incomplete report is not a success.
    expect(result.code).toBe(1);
  });
});
