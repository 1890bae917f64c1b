// The behaviour every DeliveryLedger adapter must show (the local outbox as the operator's commands read
// and change it), as one suite each adapter's test file runs: the SQLite outbox and the in-memory ledger.
// Deliveries are queued the way each adapter queues them (the SQLite store's event router; the fake's
// `queue`) and moved along through the delivery engine's port of the same outbox.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import type { LedgerOutbox } from './inMemoryDeliveryLedger.js';
import { makeEvent, newOrderUuid, T0 } from './stateStoreConformance.js';

export interface DeliveryLedgerHarness {
  outbox: LedgerOutbox;
  /**
   * Logs the event for the organization at the clock's time, with its change's source time when given,
   * and queues it for these subscribers (those not disabled), as a routed commit does.
   */
  queue(
    organizationId: string,
    event: NotifierEvent,
    subscriberIds: readonly string[],
    sourceTime?: number,
  ): Promise<void>;
  cleanup(): Promise<void>;
}

export function describeDeliveryLedgerConformance(
  name: string,
  create: (options: { clock: () => number }) => Promise<DeliveryLedgerHarness>,
): void {
  describe(`${name} (delivery ledger conformance)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });

    async function open() {
      let now = T0;
      const harness = await create({ clock: () => now });
      cleanups.push(harness.cleanup);
      const organizationId = randomUUID();
      /** Logs a new order event at `at` for these subscribers; its id. */
      const queued = async (subscriberIds: readonly string[], at = now, sourceTime?: number) => {
        now = at;
        const event = makeEvent(organizationId, newOrderUuid(), 'order.created');
        await harness.queue(organizationId, event, subscriberIds, sourceTime);
        return event.id;
      };
      return { outbox: harness.outbox, queued };
    }

    it('lists every delivery in the order its event was logged, then by subscriber, and by status on request', async () => {
      const { outbox, queued } = await open();
      const first = await queued(['office', 'automation'], T0);
      const second = await queued(['office'], T0 + 1);
      await outbox.markDelivered('office', first, T0 + 2);
      await outbox.markFailed('office', second, {
        attempts: 8,
        nextAttemptAt: T0 + 3,
        error: 'HTTP 500',
        dead: true,
      });

      expect((await outbox.listDeliveries()).map((d) => [d.eventId, d.subscriberId, d.status])).toEqual([
        [first, 'automation', 'queued'],
        [first, 'office', 'delivered'],
        [second, 'office', 'dead'],
      ]);
      expect(await outbox.listDeliveries({ status: 'dead' })).toEqual([
        {
          subscriberId: 'office',
          eventId: second,
          status: 'dead',
          attempts: 8,
          nextAttemptAt: T0 + 3,
          lastError: 'HTTP 500',
          deliveredAt: null,
        },
      ]);
      expect(await outbox.listDeliveries({ status: 'delivered' })).toEqual([
        {
          subscriberId: 'office',
          eventId: first,
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: T0,
          lastError: null,
          deliveredAt: T0 + 2,
        },
      ]);
    });

    it("gives these events' deliveries, one per subscriber, and none for no events", async () => {
      const { outbox, queued } = await open();
      const first = await queued(['office', 'automation']);
      await queued(['office']);
      const unrouted = await queued([]);

      expect((await outbox.deliveriesOf([first, unrouted])).map((d) => [d.eventId, d.subscriberId])).toEqual([
        [first, 'automation'],
        [first, 'office'],
      ]);
      expect(await outbox.deliveriesOf([])).toEqual([]);
    });

    it('says how much each subscriber has queued and since when, by the source time where the log has it', async () => {
      const { outbox, queued } = await open();
      const delivered = await queued(['office'], T0);
      await queued(['office', 'automation'], T0 + 10, T0 - 500);
      await queued(['office'], T0 + 20);
      await outbox.markDelivered('office', delivered, T0 + 30);

      expect(await outbox.backlogs()).toEqual([
        { subscriberId: 'automation', queued: 1, oldestChangeAt: T0 - 500 },
        { subscriberId: 'office', queued: 2, oldestChangeAt: T0 - 500 },
      ]);
    });

    it('lists the disabled subscribers by id, and enables one again once', async () => {
      const { outbox, queued } = await open();
      const waiting = await queued(['office']);
      await outbox.disableSubscriber('office', 'webhook answered 410 Gone', T0 + 1);
      await outbox.disableSubscriber('automation', 'channel_is_archived', T0 + 2);

      expect(await outbox.disabledSubscribers()).toEqual([
        { subscriberId: 'automation', reason: 'channel_is_archived', disabledAt: T0 + 2 },
        { subscriberId: 'office', reason: 'webhook answered 410 Gone', disabledAt: T0 + 1 },
      ]);
      expect((await outbox.deliveriesOf([waiting]))[0]).toMatchObject({
        status: 'dead',
        lastError: 'subscriber disabled: webhook answered 410 Gone',
      });
      expect(await outbox.enableSubscriber('office')).toBe(true);
      expect(await outbox.enableSubscriber('office')).toBe(false);
      expect((await outbox.disabledSubscribers()).map((d) => d.subscriberId)).toEqual(['automation']);
    });

    it('queues a dead letter, a delivered event or one never queued again from scratch, keeping the last error', async () => {
      const { outbox, queued } = await open();
      const dead = await queued(['office'], T0);
      const delivered = await queued(['office'], T0 + 1);
      const elsewhere = await queued(['automation'], T0 + 2);
      await outbox.markFailed('office', dead, {
        attempts: 8,
        nextAttemptAt: T0,
        error: 'HTTP 500',
        dead: true,
      });
      await outbox.markDelivered('office', delivered, T0 + 3);

      for (const eventId of [dead, delivered, elsewhere]) {
        expect(await outbox.requeue('office', eventId, T0 + 100)).toBe(true);
      }
      const requeued = (await outbox.listDeliveries({ status: 'queued' })).filter(
        (d) => d.subscriberId === 'office',
      );
      expect(requeued).toEqual([
        {
          subscriberId: 'office',
          eventId: dead,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: T0 + 100,
          lastError: 'HTTP 500',
          deliveredAt: null,
        },
        {
          subscriberId: 'office',
          eventId: delivered,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: T0 + 100,
          lastError: null,
          deliveredAt: null,
        },
        {
          subscriberId: 'office',
          eventId: elsewhere,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: T0 + 100,
          lastError: null,
          deliveredAt: null,
        },
      ]);
    });

    it('refuses to queue an event the log does not hold', async () => {
      const { outbox } = await open();
      expect(await outbox.requeue('office', randomUUID(), T0)).toBe(false);
      expect(await outbox.listDeliveries()).toEqual([]);
    });
  });
}
