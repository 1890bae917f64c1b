// 150 establishments closing at the same minute, through the poller's trigger use case
// (functions/poller/pollOnTrigger.ts, what the Lambda handler runs for each schedule run and tick) with its
// state in DynamoDB Local, as deployed: the Admin API in memory. The cycle after the closing records all
// 150 prep summaries, each once, in transactions DynamoDB accepts (at most 100 items each), and the next
// cycle records none again.
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollOnTrigger, type TriggerDependencies } from '../../../functions/poller/pollOnTrigger.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { PREP_SUMMARY_EVENT_TYPE } from '../../../shared/events/prepSummaryEvent.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { exampleConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import { CountingBudget } from '../../support/cycleBudgets.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { makeEstablishment } from '../../support/orderFactory.js';

const MINUTE = 60_000;
/** Wednesday 11 March 2026, 09:58 in Lisbon (UTC+0 until the end of March): two minutes before closing. */
const BEFORE_CLOSING = Date.parse('2026-03-11T09:58:00.000Z');
const ESTABLISHMENTS = 150;

const written = exampleConfig();
const config = parseConfig(written);
const organization = (() => {
  const north = config.organizations.find(({ id }) => id === NORTH_SCHOOL_ID);
  if (!north) throw new Error('the example config has no North School');
  return north;
})();

/** Powertools Metrics as the trigger uses it, publishing nowhere. */
const metrics = {
  addDimension() {},
  addMetric() {},
  publishStoredMetrics() {},
  singleMetric: () => ({ addMetric() {} }),
} as unknown as Metrics;

let table: LocalTable;

beforeAll(async () => {
  table = await createLocalStateTable();
});

afterAll(async () => {
  await table.drop();
});

describe('150 prep summaries due at once, on DynamoDB Local', () => {
  it('are recorded by the first cycle after the closing, each once, and by no cycle again', async () => {
    let now = BEFORE_CLOSING;
    const clock = () => now;
    const budget = new CountingBudget({ clock });
    const source = new InMemoryOrdersSource({
      organizationId: organization.id,
      organizationName: organization.name,
      budget,
      clock,
      timeZone: organization.timeZone,
      establishments: Array.from({ length: ESTABLISHMENTS }, () =>
        makeEstablishment({ working_days: [1, 2, 3, 4, 5, 6, 7], order_closing_time: '10:00:00' }),
      ),
    });
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, clock });
    const deps: TriggerDependencies = {
      config,
      clientFor: async () => source,
      tokenIdentityOf: async () => 'token#prep-summaries',
      store,
      ticks: { send: async () => 0 },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      metrics,
      clock,
      runId: 'prep-summaries',
    };
    const summaries = async () =>
      (await store.listEvents(organization.id)).filter(({ event }) => event.type === PREP_SUMMARY_EVENT_TYPE);

    /** A schedule run at `at`, with a fresh minute of the token's budget. */
    async function trigger(at: number) {
      now = at;
      budget.available = 45;
      return pollOnTrigger({ source: 'schedule', organizationId: organization.id }, deps);
    }

    const before = await trigger(BEFORE_CLOSING);
    expect(before).toMatchObject({ outcome: 'polled', ok: true });
    expect(await summaries()).toEqual([]);

    // The first cycle after the closing walks pending and records every establishment's summary.
    const after = await trigger(BEFORE_CLOSING + 3 * MINUTE);
    expect(after).toMatchObject({ outcome: 'polled', ok: true, events: ESTABLISHMENTS, listingProblems: 0 });
    const recorded = await summaries();
    expect(recorded).toHaveLength(ESTABLISHMENTS);
    expect(new Set(recorded.map(({ event }) => event.id)).size).toBe(ESTABLISHMENTS);
    expect(store.metrics.byOperation.recordEvents?.writeRequests ?? 0).toBeGreaterThanOrEqual(2);
    const state = await store.loadPollState(organization.id);
    expect(Object.keys(state?.prepSummaries ?? {})).toHaveLength(ESTABLISHMENTS);

    // Later cycles find every summary recorded: none is recorded twice.
    for (let minute = 4; minute < 14; minute += 1) {
      const later = await trigger(BEFORE_CLOSING + minute * MINUTE);
      if (later.outcome !== 'not_due') expect(later).toMatchObject({ ok: true, events: 0 });
    }
    expect(await summaries()).toHaveLength(ESTABLISHMENTS);
    // Twelve triggers on DynamoDB Local, each reading and writing a poll state that holds 150
    // establishments and their summaries, the closing's 150 events in two transactions: 60 s did not hold
    // on a loaded machine.
  }, 150_000);
});
