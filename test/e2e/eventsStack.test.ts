// `meal-notifier events --stack` as an operator runs it: a real process reading a state table on DynamoDB
// Local (the endpoint override docs/aws.md documents), the stack's outputs from a file. Events come from
// the table, newest first and filtered there by type; each lists the subscribers its filter routes it to,
// since a stack records no delivery per event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import { ListedEventSchema } from '../../shared/operations/eventHistory.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { NORTH_SCHOOL_ID } from '../support/configFixtures.js';
import { type DeployedStackFixture, deployedStackFixture } from '../support/deployedStackFixture.js';
import { runCli } from '../support/runCli.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../support/stateStoreConformance.js';

let stack: DeployedStackFixture;
const events: OrderEvent[] = [];

beforeAll(async () => {
  stack = await deployedStackFixture();
  let now = Date.now() - 60_000;
  const store = new DynamoStateStore({
    client: stack.table.client,
    tableName: stack.table.tableName,
    clock: () => now,
  });
  // Three orders: NS-1 created, NS-2 created, NS-1 canceled; each commit a second after the last.
  const [first, second] = [newOrderUuid(), newOrderUuid()];
  const commits: Array<[string, OrderEvent['type'], string, number]> = [
    [first, 'order.created', 'NS-1', 1],
    [second, 'order.created', 'NS-2', 1],
    [first, 'order.canceled', 'NS-1', 2],
  ];
  for (const [uuid, type, reference, version] of commits) {
    const made = makeEvent(NORTH_SCHOOL_ID, uuid, type);
    const event = { ...made, data: { ...made.data, order: { ...made.data.order, uuid, reference } } };
    now += 1_000;
    await store.commitChange(NORTH_SCHOOL_ID, {
      snapshot: makeSnapshot(uuid, { version }),
      events: [event],
    });
    events.push(event);
  }
});

afterAll(async () => {
  await stack?.close();
});

describe('meal-notifier events --stack (real process, DynamoDB Local)', () => {
  it('lists the table’s events newest first, filtered by type and order, with the subscribers each is routed to', async () => {
    const result = await runCli(
      ['events', ...stack.stackArgs, '--type', 'created,canceled', '--order', 'ns-1', '--json'],
      stack.env,
    );
    expect(result.code, result.stderr).toBe(0);
    const listed = (JSON.parse(result.stdout) as unknown[]).map((entry) => ListedEventSchema.parse(entry));
    const routed = (subscriberId: string) => ({
      subscriberId,
      status: 'routed',
      attempts: null,
      nextAttemptAt: null,
      deliveredAt: null,
      lastError: null,
    });
    // The example config routes cancellations to the office's e-mail, creations to the automation webhook.
    expect(
      listed.map(({ id, type, order, deliveries }) => ({ id, type, reference: order.reference, deliveries })),
    ).toEqual([
      { id: events[2]?.id, type: 'order.canceled', reference: 'NS-1', deliveries: [routed('office')] },
      { id: events[0]?.id, type: 'order.created', reference: 'NS-1', deliveries: [routed('automation')] },
    ]);
    expect(listed[0]?.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Nobody opted in to contact details here.
    expect(result.stdout).not.toContain('parent@example.test');
  });
});
