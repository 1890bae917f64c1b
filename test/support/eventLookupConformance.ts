// The behaviour every EventLookup adapter must show (one logged event by its id alone), as one suite each
// adapter's test file runs: the SQLite state store and the in-memory one. Events are logged through the
// StateStore port of the same store, as the poll cycle logs them.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventLookup } from '../../shared/store/eventLookup.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { makeEvent, makePrepSummary, makeSnapshot, newOrderUuid, T0 } from './stateStoreConformance.js';

export interface EventLookupHarness {
  eventLog: EventLookup;
  /** The same records through the state store port: where events are logged. */
  store: StateStore;
  cleanup(): Promise<void>;
}

export function describeEventLookupConformance(
  name: string,
  create: (options: { clock: () => number }) => Promise<EventLookupHarness>,
): void {
  describe(`${name} (event lookup conformance)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });

    async function open() {
      let now = T0;
      const harness = await create({ clock: () => now });
      cleanups.push(harness.cleanup);
      return {
        ...harness,
        setNow: (ms: number) => {
          now = ms;
        },
      };
    }

    it('finds a committed event by its id alone, with its organization and when it was logged', async () => {
      const { eventLog, store, setNow } = await open();
      const organizationId = randomUUID();
      const snapshot = makeSnapshot(newOrderUuid());
      const event = makeEvent(organizationId, snapshot.orderUuid, 'order.created');
      setNow(T0 + 1_000);
      await store.commitChange(organizationId, { snapshot, events: [event] });

      expect(await eventLog.getEvent(event.id)).toEqual({ event, organizationId, recordedAt: T0 + 1_000 });
    });

    it('finds an event recorded without a snapshot, in whichever organization logged it', async () => {
      const { eventLog, store } = await open();
      const [north, south] = [randomUUID(), randomUUID()];
      const northSummary = makePrepSummary(north);
      const southSummary = makePrepSummary(south, '2026-03-07');
      await store.recordEvents(north, [northSummary]);
      await store.recordEvents(south, [southSummary]);

      expect((await eventLog.getEvent(southSummary.id))?.organizationId).toBe(south);
      expect((await eventLog.getEvent(northSummary.id))?.event).toEqual(northSummary);
    });

    it('answers undefined for an id never logged', async () => {
      const { eventLog } = await open();
      expect(await eventLog.getEvent(randomUUID())).toBeUndefined();
    });
  });
}
