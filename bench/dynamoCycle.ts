// DynamoDB cost of the budget-true poll cycle on DynamoDB Local: the same 1,000-order world as
// pollRequests.ts, with DynamoStateStore. The baseline is spread over the cycles that take the first full
// sweep of the terminal listings (each order's snapshot written once, 1,000 in all, no event); the figures
// are then measured on the 5 unchanged cycles of one sweep period that follow (mean over them where they
// may differ; a cycle's API requests vary with its sweep slice, its DynamoDB cost should not).
//
// Figures:
// - dynamo_writes_per_unchanged_cycle: snapshot/event writes (commitChange) of a steady cycle, the most
//   any of them made; asserted 0.
// - dynamo_read_units_per_unchanged_cycle: read units of the snapshot Query (loadSnapshots), mean over the
//   steady cycles; asserted one Query page each.
// - dynamo_read_units_per_unchanged_cycle_all: read units of every operation of a steady cycle (snapshots,
//   poll state, budget), mean.
// - dynamo_bookkeeping_writes_per_cycle: lease + poll state + budget writes of a steady cycle, mean: one
//   lease take, one poll-state write (which gives the lease back), one budget reservation, and one more
//   budget write, a release, in the cycles whose sweep slice ended short of the pages reserved for it.
// - dynamo_bookkeeping_write_units_per_cycle: their write units, mean.
// - dynamo_budget_writes_per_cycle, dynamo_lease_writes_per_cycle, dynamo_poll_state_writes_per_cycle: the
//   three parts of it, mean.
// - dynamo_requests_per_unchanged_cycle: every DynamoDB request (reads and writes) of a steady cycle, mean.
// - dynamo_write_units_per_changed_order: commitChange write units, over every cycle until all 9 expected
//   events of changeTenOrders were seen, per changed order (10, each committed once: asserted), as
//   DynamoDB Local charges them.
// - dynamo_local_transaction_write_factor: how many times the documented transactional rate DynamoDB Local
//   charges (see transactionWriteFactor).
// - dynamo_write_units_per_changed_order_aws_rate: the former divided by that factor: the AWS estimate.
// - lambda_poll_cycle_ms_1000_orders: median wall time of the steady cycles (simulator in process,
//   DynamoDB Local on localhost).
import {
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { createStateTableInput } from '../shared/contracts/stateTableDefinition.js';
import type { PollReport } from '../shared/poll/pollReport.js';
import type {
  CapacityTally,
  DynamoMetricsSnapshot,
  StoreOperation,
} from '../shared/store/dynamo/dynamoMetrics.js';
import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';
import { dynamoLocalClient, startDynamoLocal } from './support/dynamoLocal.js';
import { assertSoundCycle, FixedClock, openPollFixture, sweptOnce } from './support/pollFixture.js';

const TABLE = 'bench-state';
/** One sweep period: sweepIntervalSeconds 300 at a cycle every 60 s. */
const STEADY_CYCLES = 5;
/** Cycles the first full sweep may take before the bench gives up. */
const MAX_BASELINE_CYCLES = 20;
/** Cycles the changes may take to be seen in full. */
const MAX_CHANGE_CYCLES = 10;

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
        assertSoundCycle(report, label);
        return { report, cost: difference(store.metrics, before), ms };
      };

      const id = fixture.organization.id;
      let baselineCycles = 0;
      let baselineWrites = 0;
      while (!(await sweptOnce(store, id))) {
        if (baselineCycles >= MAX_BASELINE_CYCLES) {
          throw new Error(`the first full sweep took more than ${MAX_BASELINE_CYCLES} cycles`);
        }
        baselineCycles += 1;
        const cycle = await measure(`baseline cycle ${baselineCycles}`);
        if (cycle.report.events.length > 0)
          throw new Error(`baseline cycle ${baselineCycles} emitted events`);
        baselineWrites += cycle.cost.commitChange.writeRequests;
      }
      if (baselineWrites !== 1_000)
        throw new Error(`the baseline wrote ${baselineWrites} snapshots, not 1000`);

      const steady: MeasuredCycle[] = [];
      for (let i = 0; i < STEADY_CYCLES; i += 1) steady.push(await measure(`steady cycle ${i + 1}`));
      for (const cycle of steady) {
        if (cycle.report.events.length > 0) throw new Error('steady cycle emitted events');
        if (cycle.cost.commitChange.writeRequests !== 0) {
          throw new Error(`steady cycle made ${cycle.cost.commitChange.writeRequests} snapshot/event writes`);
        }
        if (cycle.cost.loadSnapshots.readRequests !== 1) {
          throw new Error(`snapshots took ${cycle.cost.loadSnapshots.readRequests} Query pages, expected 1`);
        }
      }

      const expected = fixture.changeTenOrders();
      let events = 0;
      let changeCycles = 0;
      let changeWrites = 0;
      let changeWriteUnits = 0;
      while (events < expected.events) {
        if (changeCycles >= MAX_CHANGE_CYCLES) {
          throw new Error(`${events} of ${expected.events} events after ${MAX_CHANGE_CYCLES} cycles`);
        }
        changeCycles += 1;
        const cycle = await measure(`cycle ${changeCycles} after the changes`);
        events += cycle.report.events.length;
        changeWrites += cycle.cost.commitChange.writeRequests;
        changeWriteUnits += cycle.cost.commitChange.writeCapacityUnits;
      }
      if (events !== expected.events) throw new Error(`${events} events, expected ${expected.events}`);
      if (changeWrites !== expected.changedOrders) {
        throw new Error(`the changes made ${changeWrites} commits, not ${expected.changedOrders}`);
      }
      const ms = steady.map((cycle) => cycle.ms).sort((a, b) => a - b);
      const meanOf = (value: (cost: Record<StoreOperation, CapacityTally>) => number) =>
        round(steady.reduce((sum, cycle) => sum + value(cycle.cost), 0) / steady.length);
      const bookkeeping = (cost: Record<StoreOperation, CapacityTally>, field: keyof CapacityTally) =>
        cost.lease[field] + cost.savePollState[field] + cost.budget[field];
      const transactionFactor = await transactionWriteFactor(client);
      const changedOrderUnits = changeWriteUnits / expected.changedOrders;
      const total = (cost: Record<StoreOperation, CapacityTally>, field: keyof CapacityTally) =>
        Object.values(cost).reduce((sum, tally) => sum + tally[field], 0);

      return {
        dynamo_writes_per_unchanged_cycle: Math.max(
          ...steady.map((cycle) => cycle.cost.commitChange.writeRequests),
        ),
        dynamo_read_units_per_unchanged_cycle: meanOf((cost) => cost.loadSnapshots.readCapacityUnits),
        dynamo_bookkeeping_writes_per_cycle: meanOf((cost) => bookkeeping(cost, 'writeRequests')),
        dynamo_bookkeeping_write_units_per_cycle: meanOf((cost) => bookkeeping(cost, 'writeCapacityUnits')),
        dynamo_budget_writes_per_cycle: meanOf((cost) => cost.budget.writeRequests),
        dynamo_lease_writes_per_cycle: meanOf((cost) => cost.lease.writeRequests),
        dynamo_poll_state_writes_per_cycle: meanOf((cost) => cost.savePollState.writeRequests),
        dynamo_requests_per_unchanged_cycle: meanOf(
          (cost) => total(cost, 'readRequests') + total(cost, 'writeRequests'),
        ),
        dynamo_read_units_per_unchanged_cycle_all: meanOf((cost) => total(cost, 'readCapacityUnits')),
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
