// A run paused past its lease (a laptop lid, a stopped container, a Lambda frozen between invocations) while
// a second run takes the organization over: the first one's writes are refused once it wakes, so the
// second one's state stands, no event is lost or logged twice, and the first one's next cycle carries on
// from that state. Two runs on one state store (two SqliteStateStores on one file, two DynamoStateStores on
// one DynamoDB Local table), the simulator over real HTTP, one virtual clock; the first run is paused inside
// a store call, before it reaches the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminApiClient } from '../../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import type { NotifierEvent } from '../../../shared/events/notifierEvent.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import type { LeaseTerms } from '../../../shared/poll/organizationLease.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import type { StateStore } from '../../../shared/store/stateStore.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { failOnCleanupFailure } from '../../support/cycleFixture.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';

/** Tuesday 10 March 2026, 06:00 in Lisbon: before any establishment closes, so no prep summary. */
const T0 = Date.UTC(2026, 2, 10, 6, 0, 0);
const TOMORROW = addDays('2026-03-10', 1);
const MINUTE = 60_000;
const TTL = 5 * MINUTE;

/** Two runs' stores on the same state: what two processes (or two invocations) open. */
interface SharedState {
  first: StateStore;
  second: StateStore;
  close(): Promise<void>;
}

const stores: Array<[string, (clock: () => number) => Promise<SharedState>]> = [
  [
    'SQLite',
    async (clock) => {
      const directory = mkdtempSync(join(tmpdir(), 'lost-lease-'));
      const path = join(directory, 'state.db');
      const first = new SqliteStateStore({ path, clock });
      const second = new SqliteStateStore({ path, clock });
      return {
        first,
        second,
        close: async () => {
          first.close();
          second.close();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'DynamoDB Local',
    async (clock) => {
      const table = await createLocalStateTable();
      const open = () => new DynamoStateStore({ client: table.client, tableName: table.tableName, clock });
      return { first: open(), second: open(), close: table.drop };
    },
  ],
];

type PausedOperation = 'commitChange' | 'savePollState';

/**
 * `store`, whose first call of `operation` waits, before it reaches the store, until `resume()`: the run
 * stopped there. `reached` settles once it is waiting.
 */
function pausedBefore(store: StateStore, operation: PausedOperation) {
  let resume = () => {};
  let reach = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    resume = resolve;
  });
  let paused = false;
  const wrapped = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== operation) return value.bind(target);
      return async (...args: unknown[]) => {
        if (!paused) {
          paused = true;
          reach();
          await gate;
        }
        return value.apply(target, args);
      };
    },
  });
  return { store: wrapped, reached, resume };
}

describe.each(stores)('a cycle that lost its lease while paused, on %s', (_name, openStores) => {
  let now: number;
  const clock = () => now;
  let sim: RunningSimulator;
  let shared: SharedState;
  const clients: AdminApiClient[] = [];
  let organization: PolledOrganization;

  beforeEach(async () => {
    now = T0;
    sim = await startSimulator({ seed: 29, scenario: false, initialOrders: 12, clock });
    shared = await openStores(clock);
    organization = {
      id: sim.organization.id,
      name: sim.organization.name,
      timeZone: 'Europe/Lisbon',
      window: { daysBack: 0, daysAhead: 3 },
      // Pending only: no sweep, so each cycle is a few requests and every new order is announced.
      statuses: ['pending'],
      emitExisting: false,
      pollIntervalSeconds: 10,
      sweepIntervalSeconds: 60,
    };
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await shared.close();
    await sim.close();
  });

  /** A run: its own API client and request budget (on the shared counters), its own store, its id. */
  function run(runId: string, store: StateStore, lease: LeaseTerms) {
    const client = new AdminApiClient({
      baseUrl: sim.baseUrl,
      organizationId: sim.organization.id,
      organizationName: sim.organization.name,
      token: sim.token,
      clock,
      budget: new RequestBudget({ token: sim.token, store: store.budgetCounters, clock, maxWaitMs: 0 }),
      retry: { maxAttempts: 1 },
    });
    clients.push(client);
    return (cycleStore: StateStore = store): Promise<PollReport> =>
      pollOrganization(organization, {
        api: client,
        store: cycleStore,
        clock,
        runId,
        baseUrl: sim.baseUrl,
        lease,
        onCleanupFailure: failOnCleanupFailure,
      });
  }

  function newOrder(): string {
    const [kitchen] = sim.world.establishments();
    if (!kitchen) throw new Error('no establishment');
    return sim.world.addOrder({ establishment: kitchen.uuid, pickupDate: TOMORROW }).uuid;
  }

  const created = (events: readonly NotifierEvent[]) =>
    events.filter((event) => event.type === 'order.created').map((event) => event.subject);

  /** Every event of the organization's log, by id; each id at most once, or the log doubled one. */
  async function loggedIds(store: StateStore): Promise<string[]> {
    const ids = (await store.listEvents(organization.id)).map(({ event }) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    return ids;
  }

  const cases: Array<[LeaseTerms['heldFor'], PausedOperation]> = [
    ['cycle', 'commitChange'],
    ['cycle', 'savePollState'],
    ['run', 'commitChange'],
  ];

  it.each(cases)(
    'held for the %s, paused before %s: the successor’s state stands, each event is logged once, and the first run carries on',
    async (heldFor, pausedOperation) => {
      const lease: LeaseTerms = { ttlMs: TTL, heldFor };
      const first = run('run-a', shared.first, lease);
      const second = run('run-b', shared.second, lease);
      expect((await first()).outcome).toBe('polled');
      // A run that keeps its lease keeps it between cycles: the first one gives it up as it stops here.
      if (heldFor === 'run') await shared.first.releaseLease(organization.id, 'run-a');

      const seenByFirst = newOrder();
      now += MINUTE;
      const paused = pausedBefore(shared.first, pausedOperation);
      const stopped = first(paused.store);
      await paused.reached;

      // Stopped past its lease: the second run takes the organization over, and sees a newer order too.
      now += TTL + MINUTE;
      const seenBySecond = newOrder();
      const successor = await second();
      expect(successor).toMatchObject({ outcome: 'polled', ok: true });
      const successorState = await shared.second.loadPollState(organization.id);
      expect(successorState?.health.lastSuccessAt).toBe(now);

      paused.resume();
      const woken = await stopped;

      expect(await shared.first.loadPollState(organization.id)).toEqual(successorState);
      expect(woken).toMatchObject({ outcome: 'skipped', leaseLost: true, ok: true });
      expect(woken.reason).toMatch(/^lease lost during the cycle to another run/);
      expect(woken.reason).toContain("that run's state stands");
      if (heldFor === 'run') expect(woken.leaseHolder).toBe('run-b');
      // Each new order announced once between the two runs: the paused one's commits, when it made any
      // before its lease ran out, and the successor's.
      const told = [...created(woken.events), ...created(successor.events)];
      expect(told.sort()).toEqual([seenByFirst, seenBySecond].sort());
      const logged = await loggedIds(shared.second);
      expect(logged).toHaveLength(2);

      // The first run's next cycle: skipped while the successor keeps the lease for its run, then it polls
      // on from the successor's state, announcing only what is new.
      if (heldFor === 'run') {
        now += MINUTE;
        expect(await first()).toMatchObject({ outcome: 'skipped', leaseHolder: 'run-b' });
        expect(await shared.first.loadPollState(organization.id)).toEqual(successorState);
        await shared.second.releaseLease(organization.id, 'run-b');
      }
      const later = newOrder();
      now += MINUTE;
      const next = await first();
      expect(next).toMatchObject({ outcome: 'polled', ok: true });
      expect(created(next.events)).toEqual([later]);
      expect((await shared.first.loadPollState(organization.id))?.health.lastSuccessAt).toBe(now);
      expect(await loggedIds(shared.first)).toEqual([...logged, ...next.events.map((event) => event.id)]);
    },
  );
});
