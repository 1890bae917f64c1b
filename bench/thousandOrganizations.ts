// A simulated minute of a 1,000-organization stack on its poller path: every organization's cycle once, as
// its tick runs it on AWS (pollWhenDue with the AWS lease, its own token's budget counted in the table),
// against DynamoDB Local and an in-process simulator holding the 1,000 organizations, and the watchdog's one
// run over all of them. The organizations are small (12 orders in the window each): the reference
// organization's cycle is dynamoCycle.ts's; this is about what the count of organizations asks of the
// account: Lambda concurrency, the state table's capacity a minute, and their monthly cost.
//
// Figures (the third minute: the first cycle wrote every organization's snapshots, the second still read the
// startup's baseline pass of completed and canceled, a pickup date at a time, at 9 requests a cycle):
// - scale_organizations, scale_cycles_per_minute: 1,000 each (every cycle asserted polled and sound).
// - scale_api_requests_per_cycle, scale_dynamo_requests_per_cycle: means over the minute's cycles.
// - scale_dynamo_read_units_per_minute, scale_dynamo_write_units_per_minute: every cycle's consumed
//   capacity together (snapshots, poll state, lease, budget; no change, so no commit), as DynamoDB Local
//   reports it, and per cycle by part: scale_poll_state_read_units_per_cycle (the tick's due check and
//   the cycle's load), scale_snapshot_read_units_per_cycle, scale_poll_state_write_units_per_cycle,
//   scale_lease_write_units_per_cycle (claim and give-back), scale_budget_write_units_per_cycle and
//   _read_, scale_event_write_units_per_cycle (what the cycles committed: scale_events_per_cycle events,
//   and the first snapshots of terminal orders that this minute's sweep slices still met, since a sweep
//   takes 5 minutes), and scale_dynamo_write_units_per_minute_steady, the minute's writes without them; the watchdog's read apart: scale_watchdog_read_units_per_minute, with its requests
//   (scale_watchdog_requests_per_minute: 100 organizations to a BatchGetItem).
// - scale_cycle_cpu_ms: this process's CPU for the minute's cycles, per cycle (the simulator's share too,
//   so an upper bound of the poller's).
// - scale_cycle_seconds_on_aws: a cycle's duration on AWS by the docs' model: 100 ms per API request, 5 ms
//   per DynamoDB call, plus its CPU.
// - scale_lambda_concurrency: 1,000 cycles a minute × that duration / 60 s, the poller invocations running
//   at once on average; scale_lambda_concurrency_peak is the same at the 95th percentile of the minute's
//   API requests per cycle.
// - scale_table_cost_usd_month, scale_poller_compute_usd_month, scale_watchdog_usd_month: 43,200 such
//   minutes a month at the list prices of docs/aws.md ("Cost").
// - scale_minute_wall_seconds: how long the minute took here, 16 cycles at a time.
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { AdminApiClient } from '../shared/api/adminApiClient.js';
import { RequestBudget } from '../shared/api/requestBudget.js';
import { AWS_BUDGET_WAIT_MS, AWS_LEASE_TERMS } from '../shared/contracts/awsPollSettings.js';
import { createStateTableInput } from '../shared/contracts/stateTableDefinition.js';
import type { PolledOrganization } from '../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../shared/poll/errors.js';
import { pollWhenDue } from '../shared/poll/pollWhenDue.js';
import { watchChains } from '../shared/poll/watchChains.js';
import type { DynamoMetricsSnapshot, StoreOperation } from '../shared/store/dynamo/dynamoMetrics.js';
import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';
import { startSimulator } from '../simulator/startSimulator.js';
import { dynamoLocalClient, startDynamoLocal } from './support/dynamoLocal.js';
import { assertSoundCycle, FixedClock } from './support/pollFixture.js';

const TABLE = 'bench-scale';
/** BENCH_SCALE_ORGANIZATIONS only to try the bench quickly; the figures are for 1,000. */
const ORGANIZATIONS = Number(process.env.BENCH_SCALE_ORGANIZATIONS ?? 1_000);
const ORDERS_EACH = 12;
/** Cycles run at once here: as many poller invocations as the machine can serve, not the figure. */
const AT_ONCE = 16;
const MINUTE_MS = 60_000;
const MINUTES_A_MONTH = 43_200;
/** List prices, us-east-1, as docs/aws.md names them (read 2026-11). */
const PRICE = {
  readUnit: 0.125 / 1e6,
  writeUnit: 0.625 / 1e6,
  gbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6,
};
const API_REQUEST_S = 0.1;
const DYNAMO_CALL_S = 0.005;
const POLLER_GB = 0.25;

interface CycleFigures {
  apiRequests: number;
  events: number;
}

export async function benchThousandOrganizations(): Promise<Record<string, number>> {
  const dynamo = await startDynamoLocal();
  const client = dynamoLocalClient(dynamo.endpoint);
  const clock = new FixedClock();
  const ids = Array.from(
    { length: ORGANIZATIONS },
    (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  );
  const sim = await startSimulator({
    seed: 11,
    scenario: false,
    initialOrders: ORDERS_EACH,
    organizations: ids.map((id, n) => ({ id, name: `School ${n}` })),
    tokens: ids.map((id, n) => ({ token: `bench_token_${n}`, organizations: [id] })),
    establishments: 1,
    timeZone: 'Europe/Lisbon',
    clock: clock.now,
  });
  try {
    await client.send(new CreateTableCommand(createStateTableInput(TABLE)));
    const store = new DynamoStateStore({ client, tableName: TABLE, clock: clock.now, warn: () => {} });
    const organizations: PolledOrganization[] = ids.map((id, n) => ({
      id,
      name: `School ${n}`,
      timeZone: 'Europe/Lisbon',
      window: { daysBack: 0, daysAhead: 7 },
      statuses: ['pending', 'completed', 'canceled', 'archived'],
      emitExisting: false,
      pollIntervalSeconds: 60,
      sweepIntervalSeconds: 300,
      cadence: 'fixed',
    }));
    const apis = organizations.map(
      (organization, n) =>
        new AdminApiClient({
          baseUrl: sim.baseUrl,
          organizationId: organization.id,
          organizationName: organization.name,
          token: `bench_token_${n}`,
          clock: clock.now,
          budget: new RequestBudget({
            token: `bench_token_${n}`,
            requestsPerMinute: 50,
            store: store.budgetCounters,
            clock: clock.now,
            maxWaitMs: AWS_BUDGET_WAIT_MS,
          }),
          retry: { maxAttempts: 1 },
        }),
    );
    const cycle = async (index: number): Promise<CycleFigures> => {
      const organization = organizations[index] as PolledOrganization;
      const api = apis[index] as AdminApiClient;
      const due = await pollWhenDue(organization, {
        api,
        store,
        clock: clock.now,
        runId: `bench-${index}`,
        lease: AWS_LEASE_TERMS,
        baseUrl: sim.baseUrl,
        onCleanupFailure: (failure: CycleCleanupError) => {
          throw failure;
        },
      });
      if (due.outcome !== 'polled') throw new Error(`${organization.name}: its cycle was not due`);
      assertSoundCycle(due.report, organization.name);
      return { apiRequests: due.report.requests, events: due.report.events.length };
    };
    const minute = async () => {
      const figures: CycleFigures[] = [];
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < ORGANIZATIONS; index = next++) figures[index] = await cycle(index);
      };
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
      return figures;
    };

    process.stderr.write('bench:   first cycles of 1,000 organizations (their snapshots written)…\n');
    await minute();
    clock.advance(MINUTE_MS);
    // The startup's baseline pass of completed and canceled ends in the second cycle: steady from the third.
    process.stderr.write('bench:   second cycles (the startup baseline pass)…\n');
    await minute();
    clock.advance(MINUTE_MS);

    const before = store.metrics;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const figures = await minute();
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const afterCycles = store.metrics;
    const watch = await watchChains(organizations, {
      store,
      restart: async () => {
        throw new Error('the watchdog found a lost chain in a steady minute');
      },
      clock: clock.now,
    });
    const afterWatch = store.metrics;
    if (watch.overdue.length > 0 || watch.restarted.length > 0 || watch.unreadable.length > 0) {
      throw new Error(
        `the watchdog judged ${watch.overdue.length} overdue, ${watch.unreadable.length} unreadable`,
      );
    }

    const cycles = delta(afterCycles, before);
    const firstWrites =
      afterCycles.byOperation.commitChange.writeCapacityUnits -
      before.byOperation.commitChange.writeCapacityUnits +
      afterCycles.byOperation.recordEvents.writeCapacityUnits -
      before.byOperation.recordEvents.writeCapacityUnits;
    const unitsOf = (operation: StoreOperation, field: 'readCapacityUnits' | 'writeCapacityUnits') =>
      round(
        (afterCycles.byOperation[operation][field] - before.byOperation[operation][field]) / ORGANIZATIONS,
      );
    const watchdog = delta(afterWatch, afterCycles);
    const apiRequests = figures.map(({ apiRequests }) => apiRequests).sort((a, b) => a - b);
    const meanApi = apiRequests.reduce((sum, n) => sum + n, 0) / ORGANIZATIONS;
    const p95Api = apiRequests[Math.floor(ORGANIZATIONS * 0.95)] ?? meanApi;
    const dynamoPerCycle = (cycles.readRequests + cycles.writeRequests) / ORGANIZATIONS;
    const cpuSeconds = (cpu.user + cpu.system) / 1e6 / ORGANIZATIONS;
    const seconds = (api: number) => api * API_REQUEST_S + dynamoPerCycle * DYNAMO_CALL_S + cpuSeconds;
    const cycleSeconds = seconds(meanApi);
    const cyclesAMonth = ORGANIZATIONS * MINUTES_A_MONTH;
    return {
      scale_organizations: ORGANIZATIONS,
      scale_cycles_per_minute: figures.length,
      scale_api_requests_per_cycle: round(meanApi),
      scale_dynamo_requests_per_cycle: round(dynamoPerCycle),
      scale_dynamo_read_units_per_minute: round(cycles.readCapacityUnits),
      scale_dynamo_write_units_per_minute: round(cycles.writeCapacityUnits),
      // Without the first snapshots of terminal orders that the minute's sweep slices still wrote.
      scale_dynamo_write_units_per_minute_steady: round(cycles.writeCapacityUnits - firstWrites),
      scale_poll_state_read_units_per_cycle: unitsOf('loadPollState', 'readCapacityUnits'),
      scale_snapshot_read_units_per_cycle: unitsOf('loadSnapshots', 'readCapacityUnits'),
      scale_poll_state_write_units_per_cycle: unitsOf('savePollState', 'writeCapacityUnits'),
      scale_lease_write_units_per_cycle: unitsOf('lease', 'writeCapacityUnits'),
      scale_budget_write_units_per_cycle: unitsOf('budget', 'writeCapacityUnits'),
      scale_budget_read_units_per_cycle: unitsOf('budget', 'readCapacityUnits'),
      scale_event_write_units_per_cycle: round(
        unitsOf('recordEvents', 'writeCapacityUnits') + unitsOf('commitChange', 'writeCapacityUnits'),
      ),
      scale_events_per_cycle: round(figures.reduce((sum, { events }) => sum + events, 0) / ORGANIZATIONS),
      scale_watchdog_read_units_per_minute: round(watchdog.readCapacityUnits),
      scale_watchdog_requests_per_minute: watchdog.readRequests + watchdog.writeRequests,
      scale_cycle_cpu_ms: round(cpuSeconds * 1000),
      scale_cycle_seconds_on_aws: round(cycleSeconds),
      scale_lambda_concurrency: round((ORGANIZATIONS * cycleSeconds) / 60),
      scale_lambda_concurrency_peak: round((ORGANIZATIONS * seconds(p95Api)) / 60),
      scale_table_cost_usd_month: round(
        MINUTES_A_MONTH *
          (cycles.readCapacityUnits * PRICE.readUnit +
            (cycles.writeCapacityUnits - firstWrites) * PRICE.writeUnit),
      ),
      scale_poller_compute_usd_month: round(
        cyclesAMonth *
          (cycleSeconds * POLLER_GB * PRICE.gbSecond + PRICE.lambdaRequest + 2 * PRICE.sqsRequest),
      ),
      scale_watchdog_usd_month: round(MINUTES_A_MONTH * watchdog.readCapacityUnits * PRICE.readUnit),
      scale_minute_wall_seconds: round(wallSeconds),
    };
  } finally {
    await client.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => {});
    await sim.close();
    client.destroy();
    await dynamo.stop();
  }
}

function delta(after: DynamoMetricsSnapshot, before: DynamoMetricsSnapshot) {
  return {
    readRequests: after.total.readRequests - before.total.readRequests,
    writeRequests: after.total.writeRequests - before.total.writeRequests,
    readCapacityUnits: after.total.readCapacityUnits - before.total.readCapacityUnits,
    writeCapacityUnits: after.total.writeCapacityUnits - before.total.writeCapacityUnits,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
