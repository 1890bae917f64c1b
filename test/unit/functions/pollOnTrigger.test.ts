// A trigger of the poller whose cycle ran but whose telling fails: the token's counter that cannot say what
// is left, the state that cannot be read again for the overdue verdict. The cycle's next tick is sent all
// the same, so the chain of ticks goes on; what failed is logged with its cause, or thrown after the tick.
// The cycle runs for real (pollWhenDue, pollOrganization) on the in-memory orders source and state store,
// with Powertools' own Logger and Metrics, their output captured.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollOnTrigger, type TriggerDependencies } from '../../../functions/poller/pollOnTrigger.js';
import type { Tick } from '../../../functions/shared/tickQueue.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { METRICS_NAMESPACE } from '../../../shared/contracts/customMetrics.js';
import { StoreThrottledError } from '../../../shared/store/errors.js';
import type { StateStore } from '../../../shared/store/stateStore.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import { minimalConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import { CountingBudget } from '../../support/cycleBudgets.js';
import { T0, TODAY } from '../../support/cycleFixture.js';
import { InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { InMemoryStateStore } from '../../support/inMemoryStateStore.js';
import { makeOrder } from '../../support/orderFactory.js';

const config = parseConfig(minimalConfig());
const trigger = { source: 'schedule', organizationId: NORTH_SCHOOL_ID } as const;

let output: CapturedOutput;
let sent: Tick[];

beforeEach(() => {
  output = captureOutput();
  sent = [];
});

afterEach(() => {
  vi.restoreAllMocks();
});

function deps(api: InMemoryOrdersSource, store: StateStore): TriggerDependencies {
  return {
    config,
    clientFor: async () => api,
    tokenIdentityOf: async () => 'token-a',
    store,
    ticks: {
      send: async (tick, nowMs) => {
        sent.push(tick);
        return Math.ceil((tick.dueAt - nowMs) / 1000);
      },
    },
    logger: new Logger({ serviceName: 'poller' }),
    metrics: new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'poller' }),
    clock: () => T0,
    runId: 'request-1',
  };
}

function source(budget = new CountingBudget()): InMemoryOrdersSource {
  return new InMemoryOrdersSource({
    organizationId: NORTH_SCHOOL_ID,
    organizationName: 'North School',
    orders: [makeOrder({ pickup_at: TODAY })],
    budget,
    clock: () => T0,
    timeZone: 'Europe/Lisbon',
  });
}

function logLines(): Record<string, unknown>[] {
  return output
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{') && !line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('pollOnTrigger, when telling a cycle that ran fails', () => {
  it('sends the next tick and logs why the budget left is not known when the token’s counter cannot say', async () => {
    const store = new InMemoryStateStore({ clock: () => T0 });
    const counterDown = new StoreThrottledError('remaining', undefined, 'throughput exceeded');
    const budget = new (class extends CountingBudget {
      override async remaining(): Promise<number> {
        throw counterDown;
      }
    })();

    const result = await pollOnTrigger(trigger, deps(source(budget), store));

    expect(result).toMatchObject({ outcome: 'polled', ok: true, budgetRemaining: null });
    const nextPollAt = (await store.loadPollState(NORTH_SCHOOL_ID))?.pace.nextPollAt;
    expect(sent).toEqual([{ organizationId: NORTH_SCHOOL_ID, dueAt: nextPollAt }]);
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'poll cycle cleanup failed',
        step: 'read the request budget left',
        error: expect.objectContaining({
          name: 'CycleCleanupError',
          message: `North School: after the cycle, could not read the request budget left: StoreThrottledError: ${counterDown.message}`,
        }),
      }),
    );
  });

  it('sends the next tick before it throws what failed in telling the cycle (its metric not published)', async () => {
    const store = new InMemoryStateStore({ clock: () => T0 });
    const publishFailure = new Error('stdout closed');
    const failing = deps(source(), store);
    // Powertools failing to write the cycle's ListingProblems blob: the chain must not stop for it.
    failing.metrics = {
      singleMetric: () => ({
        addMetric() {
          throw publishFailure;
        },
      }),
    } as unknown as Metrics;

    await expect(pollOnTrigger(trigger, failing)).rejects.toBe(publishFailure);

    const nextPollAt = (await store.loadPollState(NORTH_SCHOOL_ID))?.pace.nextPollAt;
    expect(nextPollAt).toBeGreaterThan(T0);
    expect(sent).toEqual([{ organizationId: NORTH_SCHOOL_ID, dueAt: nextPollAt }]);
    expect(logLines()).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'poll cycle' }));
  });
});
