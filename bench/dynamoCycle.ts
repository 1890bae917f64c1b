// DynamoDB cost of a poll cycle on DynamoDB Local: the same 1,000-order poll with DynamoStateStore, writes and read units per cycle.
import {
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import type { PollReport } from '../shared/poll/pollOrganization.js';
import type {
  CapacityTally,
  DynamoMetricsSnapshot,
  StoreOperation,
} from '../shared/store/dynamo/dynamoMetrics.js';
import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';
import { createStateTableInput } from '../shared/store/dynamo/stateTableDefinition.js';
import { dynamoLocalClient, startDynamoLocal } from './support/dynamoLocal.js';
import { assertCompleteCycle, FixedClock, openPollFixture } from './support/pollFixture.js';

const TABLE = 'bench-state';
const STEADY_CYCLES = 3;

interface MeasuredCycle {
  report: PollReport;
  cost: Record<StoreOperation, CapacityTally>;
  ms: number;
}

export async function benchDynamoCycle(): Promise<Record<string, number>> {
  const dynamo = await startDynamoLocal();
  const client = dynamoLocalClient(dynamo.endpoint);
  try {
    // TTL stays off: DynamoDB Local's sweeper runs on the wall clock, and the bench's clock is fixed in 2026.
    await client.send(new CreateTableCommand(createStateTableInput(TABLE)));
    const clock = new FixedClock();
    const store = new DynamoStateStore({ client, tableName: TABLE, clock: clock.now });
    const fixture = await openPollFixture(store, clock);
    try {
      const measure = async (label: string): Promise<MeasuredCycle> => {
        const before = store.metrics;
        const started = performance.now();
        const report = await fixture.cycle();
        const ms = performance.now() - started;
        assertCompleteCycle(report, label);
        return { report, cost: difference(store.metrics, before), ms };
      };

      const baseline = await measure('baseline cycle');
      if (baseline.report.events.length > 0) throw new Error('baseline cycle emitted events');
      if (baseline.cost.commitChange.writeRequests !== 1_000) {
        throw new Error(`baseline wrote ${baseline.cost.commitChange.writeRequests} snapshots, not 1000`);
      }

      const steady: MeasuredCycle[] = [];
      for (let i = 0; i < STEADY_CYCLES; i += 1) steady.push(await measure('steady cycle'));
      for (const cycle of steady) {
        if (cycle.report.events.length > 0) throw new Error('steady cycle emitted events');
        if (cycle.report.ordersSeen !== 1_000)
          throw new Error(`steady cycle saw ${cycle.report.ordersSeen} orders`);
        if (cycle.cost.commitChange.writeRequests !== 0) {
          throw new Error(`steady cycle made ${cycle.cost.commitChange.writeRequests} snapshot/event writes`);
        }
      }
      const last = steady[steady.length - 1];
      if (!last) throw new Error('no steady cycle');
      if (last.cost.loadSnapshots.readRequests !== 1) {
        throw new Error(`snapshots took ${last.cost.loadSnapshots.readRequests} Query pages, expected 1`);
      }

      const expected = fixture.changeTenOrders();
      const changed = await measure('changed cycle');
      if (changed.report.events.length !== expected.events) {
        throw new Error(
          `changed cycle emitted ${changed.report.events.length} events, not ${expected.events}`,
        );
      }
      if (changed.cost.commitChange.writeRequests !== expected.changedOrders) {
        throw new Error(
          `changed cycle made ${changed.cost.commitChange.writeRequests} commits, not ${expected.changedOrders}`,
        );
      }
      const ms = steady.map((cycle) => cycle.ms).sort((a, b) => a - b);
      const bookkeeping = (cost: Record<StoreOperation, CapacityTally>, field: keyof CapacityTally) =>
        cost.lease[field] + cost.savePollState[field] + cost.budget[field];
      const transactionFactor = await transactionWriteFactor(client);
      const changedOrderUnits = changed.cost.commitChange.writeCapacityUnits / expected.changedOrders;
      const total = (field: keyof CapacityTally) =>
        Object.values(last.cost).reduce((sum, tally) => sum + tally[field], 0);

      return {
        dynamo_writes_per_unchanged_cycle: last.cost.commitChange.writeRequests,
        dynamo_read_units_per_unchanged_cycle: last.cost.loadSnapshots.readCapacityUnits,
        dynamo_bookkeeping_writes_per_cycle: bookkeeping(last.cost, 'writeRequests'),
        dynamo_bookkeeping_write_units_per_cycle: bookkeeping(last.cost, 'writeCapacityUnits'),
        dynamo_budget_writes_per_cycle: last.cost.budget.writeRequests,
        dynamo_lease_writes_per_cycle: last.cost.lease.writeRequests,
        dynamo_poll_state_writes_per_cycle: last.cost.savePollState.writeRequests,
        dynamo_requests_per_unchanged_cycle: total('readRequests') + total('writeRequests'),
        dynamo_read_units_per_unchanged_cycle_all: total('readCapacityUnits'),
        dynamo_write_units_per_changed_order: round(changedOrderUnits),
        dynamo_local_transaction_write_factor: transactionFactor,
        dynamo_write_units_per_changed_order_aws_rate: round(changedOrderUnits / transactionFactor),
        lambda_poll_cycle_ms_1000_orders: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
      };
    } finally {
      await fixture.close();
      await client.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => {});
    }
  } finally {
    client.destroy();
    await dynamo.stop();
  }
}

/**
 * How many times the documented rate (2 write units per KB per item in a transaction) DynamoDB Local
 * charges: one small item written alone and in a transaction. DynamoDB Local 1.25 charges 4 for what AWS
 * bills 2, so its transactional figures are divided by this to estimate the AWS bill.
 */
async function transactionWriteFactor(client: DynamoDBClient): Promise<number> {
  const item = (sk: string) => ({
    pk: { S: 'BENCH#calibration' },
    sk: { S: sk },
    kind: { S: 'calibration' },
  });
  const single = await client.send(
    new PutItemCommand({ TableName: TABLE, Item: item('single'), ReturnConsumedCapacity: 'TOTAL' }),
  );
  const transaction = await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [{ Put: { TableName: TABLE, Item: item('transaction') } }],
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  const singleUnits = single.ConsumedCapacity?.CapacityUnits;
  const transactionUnits = transaction.ConsumedCapacity?.[0]?.CapacityUnits;
  if (singleUnits !== 1 || transactionUnits === undefined) {
    throw new Error(
      `unexpected calibration capacity: ${singleUnits} alone, ${transactionUnits} in a transaction`,
    );
  }
  return transactionUnits / (2 * singleUnits);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function difference(
  after: DynamoMetricsSnapshot,
  before: DynamoMetricsSnapshot,
): Record<StoreOperation, CapacityTally> {
  const result = {} as Record<StoreOperation, CapacityTally>;
  for (const [operation, tally] of Object.entries(after.byOperation) as [StoreOperation, CapacityTally][]) {
    const earlier = before.byOperation[operation];
    result[operation] = {
      readRequests: tally.readRequests - earlier.readRequests,
      writeRequests: tally.writeRequests - earlier.writeRequests,
      readCapacityUnits: tally.readCapacityUnits - earlier.readCapacityUnits,
      writeCapacityUnits: tally.writeCapacityUnits - earlier.writeCapacityUnits,
    };
  }
  return result;
}
