// Pins the claim phase: the lease taken (free, run out or ours), refused with the holder named in the
// skip's reason, and taken over from a run known to have ended.
import { describe, expect, it } from 'vitest';
import { claimCycle } from '../../../shared/poll/claimCycle.js';
import { localRunId } from '../../../shared/poll/localRunId.js';
import { DEFAULT_LEASE_TERMS } from '../../../shared/poll/organizationLease.js';
import type { StateStore } from '../../../shared/store/stateStore.js';
import { cycleFixture, MINUTE, RUN_ID, T0 } from '../../support/cycleFixture.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';

const TTL = DEFAULT_LEASE_TERMS.ttlMs;

describe('claimCycle', () => {
  it('holds a free lease, for the lease’s term from the cycle’s start', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    expect(await claimCycle(context)).toEqual({ held: true });
    expect(await store.leaseHolder(ORGANIZATION.id)).toEqual({ owner: RUN_ID, until: T0 + TTL });
  });

  it('renews a lease this run already holds', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    await store.acquireLease(ORGANIZATION.id, RUN_ID, T0 - MINUTE, TTL);
    expect(await claimCycle(context)).toEqual({ held: true });
    expect(await store.leaseHolder(ORGANIZATION.id)).toEqual({ owner: RUN_ID, until: T0 + TTL });
  });

  it('holds a lease whose term another run let run out', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    await store.acquireLease(ORGANIZATION.id, 'other-run', T0 - TTL, TTL);
    expect(await claimCycle(context)).toEqual({ held: true });
  });

  it('is not held while another run’s lease lives, and names that run in the reason', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    await store.acquireLease(ORGANIZATION.id, 'lambda-request-7f3a', T0 - MINUTE, TTL);
    expect(await claimCycle(context)).toEqual({
      held: false,
      reason: 'another run, lambda-request-7f3a, is polling this organization',
      holder: 'lambda-request-7f3a',
    });
    expect(await store.leaseHolder(ORGANIZATION.id)).toMatchObject({ owner: 'lambda-request-7f3a' });
  });

  it('names a local run holding the lease by its pid and host', async () => {
    const { context, store } = await cycleFixture({ leaseHeld: false });
    const holder = localRunId({ host: 'build-7', pid: 4242, startedAt: T0 - MINUTE });
    await store.acquireLease(ORGANIZATION.id, holder, T0 - MINUTE, TTL);
    expect(await claimCycle(context)).toMatchObject({
      held: false,
      reason: 'another run, pid 4242 on build-7, is polling this organization',
      holder,
    });
  });

  it('says only that another run polls when the lease was given back and taken again between two looks', async () => {
    const { context } = await cycleFixture({ leaseHeld: false });
    // Refused, then found free, then refused again: another run was quicker, and who it is is not known.
    // The claim asks the store nothing else.
    const racing = {
      acquireLease: async () => false,
      leaseHolder: async () => undefined,
    } satisfies Pick<StateStore, 'acquireLease' | 'leaseHolder'>;
    const claim = await claimCycle({
      ...context,
      deps: { ...context.deps, store: racing as unknown as StateStore },
    });
    expect(claim).toEqual({ held: false, reason: 'another run is polling this organization' });
  });

  it('takes over at once the lease of a run known to have ended, and says whose it was', async () => {
    const ended = localRunId({ host: 'build-7', pid: 4242, startedAt: T0 - 10 * MINUTE });
    const { context, store } = await cycleFixture({
      leaseHeld: false,
      deps: { lease: { ...DEFAULT_LEASE_TERMS, isGone: (owner) => owner === ended } },
    });
    await store.acquireLease(ORGANIZATION.id, ended, T0 - MINUTE, TTL);
    expect(await claimCycle(context)).toEqual({ held: true, takenOverFrom: ended });
    expect(await store.leaseHolder(ORGANIZATION.id)).toEqual({ owner: RUN_ID, until: T0 + TTL });
  });

  it('does not take over from a holder that is not known to have ended', async () => {
    const { context, store } = await cycleFixture({
      leaseHeld: false,
      deps: { lease: { ...DEFAULT_LEASE_TERMS, isGone: (owner) => owner === 'someone-else' } },
    });
    await store.acquireLease(ORGANIZATION.id, 'other-run', T0 - MINUTE, TTL);
    expect(await claimCycle(context)).toMatchObject({ held: false, holder: 'other-run' });
  });
});
