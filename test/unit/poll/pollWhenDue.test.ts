import { describe, expect, it } from 'vitest';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import type { OrdersSource } from '../../../shared/poll/ordersSource.js';
import { EARLY_TOLERANCE_MS, pollWhenDue, tickDelaySeconds } from '../../../shared/poll/pollWhenDue.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import type { StateStore } from '../../../shared/store/stateStore.js';
import { failOnCleanupFailure } from '../../support/cycleFixture.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';

const NOW = 1_795_000_000_000;

describe('tickDelaySeconds', () => {
  it('is the whole seconds until the due time', () => {
    expect(tickDelaySeconds(NOW + 30_000, NOW)).toBe(30);
  });

  it('rounds a part of a second up, so the tick never comes early', () => {
    expect(tickDelaySeconds(NOW + 30_001, NOW)).toBe(31);
    expect(tickDelaySeconds(NOW + 1, NOW)).toBe(1);
  });

  it('is zero when the due time is now or past', () => {
    expect(tickDelaySeconds(NOW, NOW)).toBe(0);
    expect(tickDelaySeconds(NOW - 45_000, NOW)).toBe(0);
  });

  it('is at most 900 s, the longest SQS delay', () => {
    expect(tickDelaySeconds(NOW + 900_000, NOW)).toBe(900);
    expect(tickDelaySeconds(NOW + 3_600_000, NOW)).toBe(900);
  });
});

const organization: PolledOrganization = {
  id: ORGANIZATION.id,
  name: ORGANIZATION.name,
  timeZone: 'Europe/Lisbon',
  window: { daysBack: 1, daysAhead: 7 },
  statuses: ['pending', 'completed', 'canceled'],
  emitExisting: false,
  pollIntervalSeconds: 60,
  sweepIntervalSeconds: 3_600,
};

function unexpected(name: string): () => never {
  return () => {
    throw new Error(`${name} was not expected to be called`);
  };
}

/**
 * A state store that knows one poll state; loading it is all pollWhenDue should do before a cycle.
 * `acquireLease` answers "another run holds it" (and `leaseHolder` which), so a cycle, once started, stops at
 * once without the API.
 */
function fakeStore(state: PollState | undefined) {
  const calls: string[] = [];
  const store: StateStore = {
    loadPollState: async (organizationId) => {
      calls.push(`loadPollState ${organizationId}`);
      return state;
    },
    acquireLease: async () => {
      calls.push('acquireLease');
      return false;
    },
    leaseHolder: async () => {
      calls.push('leaseHolder');
      return { owner: 'another-run', until: NOW + 60_000 };
    },
    loadSnapshots: unexpected('loadSnapshots'),
    commitChange: unexpected('commitChange'),
    recordEvents: unexpected('recordEvents'),
    listEvents: unexpected('listEvents'),
    findEvents: unexpected('findEvents'),
    savePollState: unexpected('savePollState'),
    releaseLease: unexpected('releaseLease'),
    get budgetCounters(): never {
      throw new Error('budgetCounters was not expected to be used');
    },
  };
  return { store, calls };
}

/** An API that fails the test on any request. */
const api: OrdersSource = {
  listOrders: unexpected('listOrders'),
  listEstablishments: unexpected('listEstablishments'),
  requestCount: 0,
  get budget(): never {
    throw new Error('the request budget was not expected to be used');
  },
};

function deps(store: StateStore) {
  return {
    api,
    store,
    clock: () => NOW,
    runId: 'run-1',
    baseUrl: 'https://example.test/api/v1/admin',
    onCleanupFailure: failOnCleanupFailure,
  };
}

function stateDueAt(nextPollAt: number | null): PollState {
  const state = initialPollState(organization.id);
  return { ...state, pace: { ...state.pace, nextPollAt } };
}

describe('pollWhenDue', () => {
  it('is not due, and makes no request, when the next poll is more than a second away', async () => {
    const { store, calls } = fakeStore(stateDueAt(NOW + EARLY_TOLERANCE_MS + 1));
    await expect(pollWhenDue(organization, deps(store))).resolves.toMatchObject({
      outcome: 'not_due',
      nextPollAt: NOW + EARLY_TOLERANCE_MS + 1,
    });
    expect(calls).toEqual([`loadPollState ${organization.id}`]);
  });

  it('is not due long before the next poll', async () => {
    const { store, calls } = fakeStore(stateDueAt(NOW + 45_000));
    await expect(pollWhenDue(organization, deps(store))).resolves.toMatchObject({
      outcome: 'not_due',
      nextPollAt: NOW + 45_000,
    });
    expect(calls).toEqual([`loadPollState ${organization.id}`]);
  });

  it('runs the cycle when the next poll is exactly a second away', async () => {
    const { store, calls } = fakeStore(stateDueAt(NOW + EARLY_TOLERANCE_MS));
    const due = await pollWhenDue(organization, deps(store));
    expect(due.outcome).toBe('polled');
    expect(calls).toEqual([`loadPollState ${organization.id}`, 'acquireLease', 'leaseHolder']);
  });

  it('runs the cycle when the next poll is past', async () => {
    const { store } = fakeStore(stateDueAt(NOW - 10_000));
    expect((await pollWhenDue(organization, deps(store))).outcome).toBe('polled');
  });

  it('runs the cycle when no poll was ever scheduled', async () => {
    const { store: noState } = fakeStore(undefined);
    const { store: noNextPoll } = fakeStore(stateDueAt(null));
    expect((await pollWhenDue(organization, deps(noState))).outcome).toBe('polled');
    expect((await pollWhenDue(organization, deps(noNextPoll))).outcome).toBe('polled');
  });

  it('tolerates exactly one second early', () => {
    expect(EARLY_TOLERANCE_MS).toBe(1_000);
  });
});
