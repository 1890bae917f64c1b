// The behaviour every StateRetention adapter must show (forgetting what has expired), as one suite each
// adapter's test file runs: the SQLite state store and the in-memory one. Records are written and read back
// through the StateStore port of the same store.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StateRetention } from '../../shared/store/stateRetention.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from './stateStoreConformance.js';

export interface StateRetentionHarness {
  retention: StateRetention;
  /** The same records through the state store port. */
  store: StateStore;
  cleanup(): Promise<void>;
}

/** The event retention the suite asks the store for. */
export const SUITE_RETENTION_MS = 10_000;

export function describeStateRetentionConformance(
  name: string,
  create: (options: { clock: () => number; eventRetentionMs: number }) => Promise<StateRetentionHarness>,
): void {
  describe(`${name} (state retention conformance)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });

    async function open() {
      const harness = await create({ clock: () => T0, eventRetentionMs: SUITE_RETENTION_MS });
      cleanups.push(harness.cleanup);
      return { ...harness, organizationId: randomUUID() };
    }

    it('forgets nothing before anything expires', async () => {
      const { retention, store, organizationId } = await open();
      const snapshot = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 5_000 });
      await store.commitChange(organizationId, {
        snapshot,
        events: [makeEvent(organizationId, snapshot.orderUuid, 'order.created')],
      });

      expect(await retention.prune(T0 + 4_999)).toEqual({ snapshots: 0, events: 0 });
      expect((await store.loadSnapshots(organizationId)).size).toBe(1);
      expect(await store.listEvents(organizationId)).toHaveLength(1);
    });

    it('forgets a snapshot at its expiresAt and an event once the retention has passed, keeping the rest', async () => {
      const { retention, store, organizationId } = await open();
      const expiring = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 5_000 });
      const lasting = makeSnapshot(newOrderUuid(), { expiresAt: T0 + 50_000 });
      await store.commitChange(organizationId, {
        snapshot: expiring,
        events: [makeEvent(organizationId, expiring.orderUuid, 'order.created')],
      });
      await store.commitChange(organizationId, { snapshot: lasting, events: [] });

      expect(await retention.prune(T0 + 5_000)).toEqual({ snapshots: 1, events: 0 });
      expect(await retention.prune(T0 + SUITE_RETENTION_MS)).toEqual({ snapshots: 0, events: 1 });
      expect([...(await store.loadSnapshots(organizationId)).keys()]).toEqual([lasting.orderUuid]);
      expect(await store.listEvents(organizationId)).toEqual([]);
      expect(await retention.prune(T0 + SUITE_RETENTION_MS)).toEqual({ snapshots: 0, events: 0 });
    });
  });
}
