// Pins how a cycle ends: the health record (a success clears the failures, a failure counts and says why,
// a deferral only dates the attempt), and the save that gives back a lease held for the cycle with it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LEASE_TERMS } from '../../../shared/poll/organizationLease.js';
import { healthAfter, saveCycle } from '../../../shared/poll/saveCycle.js';
import { LeaseLostError } from '../../../shared/store/errors.js';
import { initialPollState, type PollHealth } from '../../../shared/store/pollState.js';
import { cycleFixture, MINUTE, RUN_ID, T0 } from '../../support/cycleFixture.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';

const EARLIER = T0 - MINUTE;
const FAILING: PollHealth = {
  lastSuccessAt: EARLIER - MINUTE,
  lastAttemptAt: EARLIER,
  consecutiveFailures: 2,
  lastError: 'North School: server error (503) on GET /orders',
  tokenRejectedAt: null,
};

describe('healthAfter', () => {
  it('clears the failures and their error after a cycle without failure', () => {
    expect(healthAfter(FAILING, { outcome: 'polled', failures: [] }, T0)).toEqual({
      lastSuccessAt: T0,
      lastAttemptAt: T0,
      consecutiveFailures: 0,
      lastError: null,
      tokenRejectedAt: null,
    });
  });

  it('counts a failed cycle and keeps its first failure line, and when it last succeeded', () => {
    const failures = [
      'North School: unauthorized on GET /orders',
      'North School: establishments not refreshed',
    ];
    expect(healthAfter(FAILING, { outcome: 'polled', failures }, T0)).toEqual({
      lastSuccessAt: EARLIER - MINUTE,
      lastAttemptAt: T0,
      consecutiveFailures: 3,
      lastError: failures[0],
      tokenRejectedAt: null,
    });
  });

  describe('a rejected token', () => {
    const rejected = ['North School: token rejected: put a new token; the API answered 401 (unauthorized)'];

    it('is marked from the cycle the API rejected it in, and stays marked from then while it is rejected', () => {
      const first = healthAfter(FAILING, { outcome: 'polled', failures: rejected, tokenRejected: true }, T0);
      expect(first).toMatchObject({ tokenRejectedAt: T0, lastError: rejected[0], consecutiveFailures: 3 });
      const later = healthAfter(
        first,
        { outcome: 'polled', failures: rejected, tokenRejected: true },
        T0 + 5 * MINUTE,
      );
      expect(later).toMatchObject({ tokenRejectedAt: T0, consecutiveFailures: 4 });
      // A deferral says nothing of the token.
      expect(healthAfter(later, { outcome: 'deferred', failures: [] }, T0 + 6 * MINUTE).tokenRejectedAt).toBe(
        T0,
      );
    });

    it('is cleared by the first cycle that gets past the token, success or another failure', () => {
      const marked = { ...FAILING, tokenRejectedAt: EARLIER };
      expect(healthAfter(marked, { outcome: 'polled', failures: [] }, T0).tokenRejectedAt).toBeNull();
      const other = ['North School: server error (503) on GET /orders'];
      expect(healthAfter(marked, { outcome: 'polled', failures: other }, T0).tokenRejectedAt).toBeNull();
    });
  });

  it('only dates the attempt after a deferral, which is neither success nor failure', () => {
    expect(healthAfter(FAILING, { outcome: 'deferred', failures: [] }, T0)).toEqual({
      ...FAILING,
      lastAttemptAt: T0,
    });
  });
});

describe('saveCycle', () => {
  const state = {
    ...initialPollState(ORGANIZATION.id),
    pace: { averageCycleRequests: 4, nextPollAt: T0 + 10_000 },
  };

  it('saves the poll state and gives back a lease held for the cycle in the same save', async () => {
    const { context, store } = await cycleFixture();
    await store.acquireLease(ORGANIZATION.id, RUN_ID, T0, DEFAULT_LEASE_TERMS.ttlMs);
    await saveCycle(context, state);
    expect(await store.loadPollState(ORGANIZATION.id)).toEqual(state);
    expect(await store.leaseHolder(ORGANIZATION.id)).toBeUndefined();
  });

  it('keeps the lease when the save fails: nothing is given back apart from the state', async () => {
    const { context, store } = await cycleFixture();
    await store.acquireLease(ORGANIZATION.id, RUN_ID, T0, DEFAULT_LEASE_TERMS.ttlMs);
    store.failNext('savePollState', new Error('store down'));
    await expect(saveCycle(context, state)).rejects.toThrow('store down');
    expect(await store.leaseHolder(ORGANIZATION.id)).toMatchObject({ owner: RUN_ID });
    expect(await store.loadPollState(ORGANIZATION.id)).toBeUndefined();
  });

  it('keeps a lease the run holds between cycles', async () => {
    const lease = { ttlMs: 5 * MINUTE, heldFor: 'run' } as const;
    const { context, store } = await cycleFixture({ deps: { lease } });
    await store.acquireLease(ORGANIZATION.id, RUN_ID, T0, lease.ttlMs);
    await saveCycle(context, state);
    expect(await store.loadPollState(ORGANIZATION.id)).toEqual(state);
    expect(await store.leaseHolder(ORGANIZATION.id)).toEqual({ owner: RUN_ID, until: T0 + lease.ttlMs });
  });

  it('saves nothing, and gives back nothing, once another run holds the lease: the lease is lost', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    await store.acquireLease(ORGANIZATION.id, 'other-run', T0, DEFAULT_LEASE_TERMS.ttlMs);
    await expect(saveCycle(context, state)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.leaseHolder(ORGANIZATION.id)).toMatchObject({ owner: 'other-run' });
    expect(await store.loadPollState(ORGANIZATION.id)).toBeUndefined();
  });
});
