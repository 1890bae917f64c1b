// A poll cycle that fails, and the steps after it that fail, on a real state store (SQLite in memory, and
// the same cases on DynamoDB Local) whose operations a case breaks one by one: the cycle's own error is what
// it throws, never a failure of giving back the lease or the budget, which is told on its own with its
// cause; a cycle that throws still records its health, so status says what failed in that cycle; a saved
// cycle reports even when the budget cannot be given back or read; a bug met in a walk fails the cycle as
// the bug it is; and a cycle the runner stopped is no failure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InternalError } from '../../../shared/errors/internalError.js';
import { assessHealth } from '../../../shared/operations/healthVerdict.js';
import { organizationStatus } from '../../../shared/operations/statusReport.js';
import { type CycleCleanupError, UnexpectedCycleError } from '../../../shared/poll/errors.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { StoreContentionError, StoreThrottledError } from '../../../shared/store/errors.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import type { StateStore } from '../../../shared/store/stateStore.js';
import { RunnerStoppingError } from '../../../shared/time/runnerStoppingError.js';
import { CountingBudget } from '../../support/cycleBudgets.js';
import { MINUTE, polledOrganization, T0, TODAY } from '../../support/cycleFixture.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';
import { InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { makeOrder } from '../../support/orderFactory.js';

interface OpenedStore {
  store: StateStore;
  close(): Promise<void>;
}

const stores: Array<[string, (clock: () => number) => Promise<OpenedStore>]> = [
  [
    'SqliteStateStore',
    async (clock) => {
      const store = new SqliteStateStore({ path: ':memory:', clock });
      return { store, close: async () => store.close() };
    },
  ],
  [
    'DynamoStateStore',
    async (clock) => {
      const table = await createLocalStateTable();
      const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, clock });
      return { store, close: table.drop };
    },
  ],
];

type Breakable = Exclude<keyof StateStore, 'budgetCounters'>;

/**
 * `store` with the operations a case breaks: each throws the error its factory makes, from the moment
 * it is broken; the rest are the store's own.
 */
class BreakableStore {
  readonly broken = new Map<string, () => Error>();
  readonly store: StateStore;

  constructor(real: StateStore) {
    const broken = this.broken;
    this.store = new Proxy(real, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const failure = broken.get(String(property));
          if (failure) throw failure();
          return value.apply(target, args);
        };
      },
    });
  }

  break(operation: Breakable, failure: () => Error): void {
    this.broken.set(operation, failure);
  }
}

describe.each(stores)('a failing poll cycle, on %s', (_name, openStore) => {
  let now: number;
  const clock = () => now;
  let opened: OpenedStore;
  let breakable: BreakableStore;
  let source: InMemoryOrdersSource;
  let cleanups: CycleCleanupError[];
  const organization = polledOrganization();

  beforeEach(async () => {
    now = T0;
    opened = await openStore(clock);
    breakable = new BreakableStore(opened.store);
    cleanups = [];
    source = new InMemoryOrdersSource({
      organizationId: organization.id,
      organizationName: organization.name,
      orders: [makeOrder({ pickup_at: TODAY }), makeOrder({ pickup_at: TODAY })],
      clock,
      timeZone: organization.timeZone,
    });
  });

  afterEach(async () => {
    await opened.close();
  });

  function poll(api = source) {
    return pollOrganization(organization, {
      api,
      store: breakable.store,
      clock,
      runId: 'run-a',
      baseUrl: 'https://admin.example.test/api/v1/admin',
      onCleanupFailure: (failure) => cleanups.push(failure),
    });
  }

  const storeDown = (operation: string) => () =>
    new StoreThrottledError(operation, organization.id, 'throughput exceeded');

  async function status() {
    return organizationStatus(organization, opened.store, now);
  }

  it('throws the store’s error, not the failure to give the lease back, which is told with its own cause', async () => {
    const loadFailure = storeDown('loadPollState')();
    breakable.break('loadPollState', () => loadFailure);
    const releaseFailure = storeDown('releaseLease')();
    breakable.break('releaseLease', () => releaseFailure);

    await expect(poll()).rejects.toBe(loadFailure);

    expect(cleanups).toHaveLength(1);
    expect(cleanups[0]).toMatchObject({ step: 'give back the lease', cause: releaseFailure });
    expect(cleanups[0]?.message).toBe(
      `North School: after the cycle, could not give back the lease: StoreThrottledError: ${releaseFailure.message}`,
    );
  });

  it('records a failed cycle’s health, so status says what failed in this cycle, and gives the lease back', async () => {
    expect((await poll()).ok).toBe(true);
    const succeededAt = now;
    now += MINUTE;
    breakable.break(
      'loadSnapshots',
      () => new StoreContentionError('loadSnapshots', organization.id, 'transaction conflict'),
    );

    await expect(poll()).rejects.toBeInstanceOf(StoreContentionError);

    const after = await status();
    expect(after).toMatchObject({
      consecutiveFailures: 1,
      lastError: `North School: cycle failed: state store loadSnapshots failed for organization ${organization.id}: transaction conflict`,
      lastSuccessAt: new Date(succeededAt).toISOString(),
      lastAttemptAt: new Date(now).toISOString(),
    });
    expect(cleanups).toEqual([]);
    expect(await opened.store.leaseHolder(organization.id)).toBeUndefined();
    // Once overdue, the verdict of status and /healthz names this cycle's failure.
    now += 10 * MINUTE;
    const report = {
      organizations: [await status()],
      subscribers: [],
      statePath: ':memory:',
      stateExists: true,
    };
    const health = assessHealth(report, now);
    expect(health.problems).toEqual([
      expect.stringMatching(
        /^North School: last successful poll .* ago, .*; 1 failed cycle in a row, the last: cycle failed: state store loadSnapshots failed/,
      ),
    ]);
  });

  it('fails the cycle on a TypeError met in a walk, as a bug with its stack, and records it as one', async () => {
    expect((await poll()).ok).toBe(true);
    now += MINUTE;
    const bug = new TypeError("Cannot read properties of undefined (reading 'uuid')");
    source.failListing({ error: bug });

    const thrown = await poll().catch((error: unknown) => error);

    expect(thrown).toBeInstanceOf(UnexpectedCycleError);
    expect(thrown).toBeInstanceOf(InternalError);
    expect((thrown as Error).cause).toBe(bug);
    expect((thrown as Error).message).toBe(
      "North School: listing pending: unexpected TypeError: Cannot read properties of undefined (reading 'uuid')",
    );
    expect(await status()).toMatchObject({
      consecutiveFailures: 1,
      lastError: expect.stringMatching(
        /^North School: cycle failed: unexpected failure, please report it: listing pending: unexpected TypeError: /,
      ),
    });
  });

  it('reports a saved cycle whose budget can be neither given back nor read, and tells both failures', async () => {
    const releaseFailure = storeDown('releaseBudget')();
    const readFailure = storeDown('remainingBudget')();
    // The token's counters failing after the cycle saved: what it reserved and did not send, and what is left.
    const budget = new (class extends CountingBudget {
      override async release(): Promise<void> {
        throw releaseFailure;
      }
      override async remaining(): Promise<number> {
        throw readFailure;
      }
    })();
    const api = new InMemoryOrdersSource({
      organizationId: organization.id,
      organizationName: organization.name,
      orders: source.orders(),
      budget,
      clock,
      timeZone: organization.timeZone,
    });

    const report = await poll(api);

    expect(report).toMatchObject({ outcome: 'polled', ok: true, ordersSeen: 2, budgetRemaining: null });
    expect(cleanups.map(({ step, cause }) => ({ step, cause }))).toEqual([
      { step: 'release the request budget', cause: releaseFailure },
      { step: 'read the request budget left', cause: readFailure },
    ]);
    expect(await status()).toMatchObject({
      consecutiveFailures: 0,
      lastSuccessAt: new Date(T0).toISOString(),
    });
  });

  it('records no failure for a cycle the runner stopped while it waited for budget', async () => {
    expect((await poll()).ok).toBe(true);
    now += MINUTE;
    const stopping = new (class extends CountingBudget {
      override async reserve(): Promise<number> {
        throw new RunnerStoppingError();
      }
    })();
    const api = new InMemoryOrdersSource({
      organizationId: organization.id,
      organizationName: organization.name,
      budget: stopping,
      clock,
      timeZone: organization.timeZone,
    });

    await expect(poll(api)).rejects.toBeInstanceOf(RunnerStoppingError);

    expect(await status()).toMatchObject({ consecutiveFailures: 0, lastError: null });
    expect(await opened.store.leaseHolder(organization.id)).toBeUndefined();
    expect(cleanups).toEqual([]);
  });
});
