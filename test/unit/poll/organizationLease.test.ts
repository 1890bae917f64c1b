// The lease policy both runtimes follow, over a real (in-memory) SQLite store: taken, renewed, refused
// to a live holder, taken over from an ended one, and kept by a run between its cycles.
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimLease,
  DEFAULT_LEASE_TERMS,
  keepLeaseUntil,
  type LeaseTerms,
} from '../../../shared/poll/organizationLease.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';

const NOW = 1_795_000_000_000;
const ORG = 'a3c1f2e4-0000-4000-8000-000000000001';
const MINUTE = 60_000;
const stores: SqliteStateStore[] = [];

function newStore(): SqliteStateStore {
  const store = new SqliteStateStore({ path: ':memory:' });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** Terms under which only `gone` is known to have ended; every question is recorded. */
function knowingGone(gone: string, base: LeaseTerms = DEFAULT_LEASE_TERMS) {
  const asked: string[] = [];
  const terms: LeaseTerms = {
    ...base,
    isGone: (owner) => {
      asked.push(owner);
      return owner === gone;
    },
  };
  return { terms, asked };
}

describe('claimLease', () => {
  it('takes a free lease without asking whether anyone is gone', async () => {
    const store = newStore();
    const { terms, asked } = knowingGone('run-a');
    expect(await claimLease(store, ORG, 'run-b', NOW, terms)).toEqual({ held: true });
    expect(await store.leaseHolder(ORG)).toEqual({ owner: 'run-b', until: NOW + terms.ttlMs });
    expect(asked).toEqual([]);
  });

  it('refuses a lease a live run holds, and names that run', async () => {
    const store = newStore();
    await store.acquireLease(ORG, 'run-a', NOW, 5 * MINUTE);
    const { terms, asked } = knowingGone('run-x');
    expect(await claimLease(store, ORG, 'run-b', NOW + MINUTE, terms)).toEqual({
      held: false,
      holder: 'run-a',
    });
    expect(asked).toEqual(['run-a']);
    expect(await store.leaseHolder(ORG)).toEqual({ owner: 'run-a', until: NOW + 5 * MINUTE });
  });

  it('refuses a held lease when nobody can tell whether its holder ended', async () => {
    const store = newStore();
    await store.acquireLease(ORG, 'run-a', NOW, 5 * MINUTE);
    expect(await claimLease(store, ORG, 'run-b', NOW + MINUTE, DEFAULT_LEASE_TERMS)).toEqual({
      held: false,
      holder: 'run-a',
    });
  });

  it('takes over at once the lease of a run known to have ended, for a full term', async () => {
    const store = newStore();
    await store.acquireLease(ORG, 'run-a', NOW, 5 * MINUTE);
    const { terms } = knowingGone('run-a');
    expect(await claimLease(store, ORG, 'run-b', NOW + MINUTE, terms)).toEqual({
      held: true,
      takenOverFrom: 'run-a',
    });
    expect(await store.leaseHolder(ORG)).toEqual({ owner: 'run-b', until: NOW + MINUTE + terms.ttlMs });
    // A third run that also found run-a gone finds run-b holding it now.
    expect(await claimLease(store, ORG, 'run-c', NOW + MINUTE, terms)).toEqual({
      held: false,
      holder: 'run-b',
    });
  });

  it('takes a lease that was given back between its attempt and its look at the holder', async () => {
    const store = newStore();
    await store.acquireLease(ORG, 'run-a', NOW, 5 * MINUTE);
    let attempts = 0;
    const racing = Object.assign(Object.create(store) as SqliteStateStore, {
      acquireLease: async (...args: Parameters<SqliteStateStore['acquireLease']>) => {
        attempts += 1;
        const taken = await store.acquireLease(...args);
        if (attempts === 1) await store.releaseLease(ORG, 'run-a');
        return taken;
      },
      leaseHolder: (organizationId: string) => store.leaseHolder(organizationId),
    });
    expect(await claimLease(racing, ORG, 'run-b', NOW + MINUTE, DEFAULT_LEASE_TERMS)).toEqual({ held: true });
    expect(attempts).toBe(2);
  });
});

describe('keepLeaseUntil', () => {
  it('keeps a run’s lease a full term past its next cycle’s due time', async () => {
    const store = newStore();
    const terms: LeaseTerms = { ttlMs: 5 * MINUTE, heldFor: 'run' };
    await claimLease(store, ORG, 'run-a', NOW, terms);
    expect(await keepLeaseUntil(store, ORG, 'run-a', NOW + MINUTE, NOW + 30 * MINUTE, terms)).toBe(true);
    expect(await store.leaseHolder(ORG)).toEqual({ owner: 'run-a', until: NOW + 35 * MINUTE });
    // Between the two cycles, long after a plain claim would have run out, it is still the run's.
    expect(await claimLease(store, ORG, 'run-b', NOW + 20 * MINUTE, terms)).toEqual({
      held: false,
      holder: 'run-a',
    });
  });

  it('does not take back a lease another run holds now', async () => {
    const store = newStore();
    const terms: LeaseTerms = { ttlMs: MINUTE, heldFor: 'run' };
    await claimLease(store, ORG, 'run-a', NOW, terms);
    await claimLease(store, ORG, 'run-b', NOW + 2 * MINUTE, terms);
    expect(await keepLeaseUntil(store, ORG, 'run-a', NOW + 2 * MINUTE, NOW + 3 * MINUTE, terms)).toBe(false);
    expect((await store.leaseHolder(ORG))?.owner).toBe('run-b');
  });
});
