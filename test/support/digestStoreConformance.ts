// The behaviour every DigestStore adapter must show (the log as the digests read it, and a digest recorded
// once under its id), as one suite each adapter's test file runs: the SQLite state store and the in-memory
// one. Events are logged through the StateStore port of the same store, as the poll cycle logs them.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { DigestStore } from '../../shared/delivery/digest/digestStore.js';
import type { DigestEvent } from '../../shared/events/digestEvent.js';
import { digestEventId } from '../../shared/events/eventId.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { makeEvent, newOrderUuid, T0 } from './stateStoreConformance.js';

export interface DigestStoreHarness {
  digests: DigestStore;
  /** The same records through the state store port: where events are logged. */
  store: StateStore;
  cleanup(): Promise<void>;
}

/** A one-event digest of the hour from T0 for `subscriberId`; `part` makes it one numbered part. */
export function makeDigest(organizationId: string, subscriberId: string, part?: number): DigestEvent {
  const event = makeEvent(organizationId, newOrderUuid(), 'order.created');
  return {
    specversion: '1.0',
    id: digestEventId(subscriberId, organizationId, T0, part),
    source: event.source,
    type: 'digest.email',
    subject: subscriberId,
    time: new Date(T0 + 3_600_000).toISOString(),
    datacontenttype: 'application/json',
    data: {
      subscriber_id: subscriberId,
      organization: { id: organizationId, name: 'North School', time_zone: 'UTC' },
      every: '1h',
      period_start: new Date(T0).toISOString(),
      period_end: new Date(T0 + 3_600_000).toISOString(),
      by_type: [{ name: 'order.created', count: 1 }],
      by_establishment: [{ name: 'Main Kitchen', count: 1 }],
      events: [
        {
          event_id: event.id,
          type: 'order.created',
          reference: 'R-1',
          establishment: 'Main Kitchen',
          pickup_date: '2026-03-06',
          time: event.time,
        },
      ],
      ...(part === undefined ? {} : { part: { number: part, of: 2, first_event: 1, left_out: 0 } }),
    },
  };
}

export function describeDigestStoreConformance(
  name: string,
  create: (options: { clock: () => number }) => Promise<DigestStoreHarness>,
): void {
  describe(`${name} (digest store conformance)`, () => {
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
        organizationId: randomUUID(),
        setNow: (ms: number) => {
          now = ms;
        },
      };
    }

    it('lists the events recorded at or after the time asked, oldest first', async () => {
      const { digests, store, organizationId, setNow } = await open();
      const early = makeEvent(organizationId, newOrderUuid(), 'order.created');
      const onTime = makeEvent(organizationId, newOrderUuid(), 'order.created');
      const late = makeEvent(organizationId, newOrderUuid(), 'order.created');
      for (const [at, event] of [
        [T0 - 1, early],
        [T0, onTime],
        [T0 + 1, late],
      ] as const) {
        setNow(at);
        await store.recordEvents(organizationId, [event]);
      }

      expect((await digests.listEvents(organizationId, T0)).map(({ event }) => event.id)).toEqual([
        onTime.id,
        late.id,
      ]);
    });

    it('records a digest once: the same id again is refused, another part is not', async () => {
      const { digests, organizationId } = await open();
      expect(await digests.recordDigest(organizationId, makeDigest(organizationId, 'office', 1))).toBe(true);
      expect(await digests.recordDigest(organizationId, makeDigest(organizationId, 'office', 1))).toBe(false);
      expect(await digests.recordDigest(organizationId, makeDigest(organizationId, 'office', 2))).toBe(true);
      expect(await digests.recordDigest(organizationId, makeDigest(organizationId, 'manager', 1))).toBe(true);
    });

    it('never lists a digest among the events it is built from', async () => {
      const { digests, store, organizationId } = await open();
      const event = makeEvent(organizationId, newOrderUuid(), 'order.created');
      await store.recordEvents(organizationId, [event]);
      await digests.recordDigest(organizationId, makeDigest(organizationId, 'office'));

      expect((await digests.listEvents(organizationId, T0)).map((stored) => stored.event.id)).toEqual([
        event.id,
      ]);
      expect(await store.findEvents(organizationId, { limit: 10 })).toHaveLength(1);
    });
  });
}
