// A subscriber only a person can fix (a revoked Slack token, an app not in its channel) over a real SQLite
// outbox: it pauses and keeps every delivery, no attempt counted, says what to do through the ledger that
// status and /healthz read, is probed rather than hammered, and delivers everything once fixed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAUSED_PROBE_MS } from '../../../shared/delivery/deliveryDecision.js';
import type { DeliveryOutcome, EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import { OutboxDelivery } from '../../../shared/delivery/outboxDelivery.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
let now: number;
let store: SqliteStateStore;

class FixableSender implements EventSender {
  fixed = false;
  calls = 0;
  async send(): Promise<DeliveryOutcome> {
    this.calls += 1;
    return this.fixed
      ? { kind: 'delivered' }
      : {
          kind: 'paused',
          reason: 'the Slack app is not in the channel (chat.postMessage: not_in_channel)',
          action: 'invite the app to channel C0123ABCD',
        };
  }
}

async function logEvent(): Promise<OrderEvent> {
  const snapshot = makeSnapshot(newOrderUuid(), { status: 'pending' });
  const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
  await store.commitChange(ORG, { snapshot, events: [event] });
  return event;
}

beforeEach(() => {
  now = T0;
  store = new SqliteStateStore({ path: ':memory:', clock: () => now, routeEvent: () => ['kitchen'] });
});

afterEach(() => {
  store.close();
});

describe('a paused subscriber', () => {
  it('keeps its deliveries, says what to do, is probed, and delivers all once fixed', async () => {
    for (let index = 0; index < 3; index += 1) await logEvent();
    const sender = new FixableSender();
    const engine = new OutboxDelivery({
      outbox: store.outbox,
      senders: { senderFor: async () => sender },
      clock: () => now,
      random: () => 0.5,
    });
    const reports = await engine.deliverDue();
    // One call, not one per queued delivery: the rest wait for the probe.
    expect(sender.calls).toBe(1);
    expect(reports.map((report) => report.state)).toEqual(['queued']);
    const queued = await store.outbox.listDeliveries({ status: 'queued' });
    expect(queued).toHaveLength(3);
    expect(queued.every((delivery) => delivery.attempts === 0)).toBe(true);
    expect(await store.outbox.pausedSubscribers()).toEqual([
      {
        subscriberId: 'kitchen',
        disabledAt: T0,
        reason:
          'the Slack app is not in the channel (chat.postMessage: not_in_channel): invite the app to channel C0123ABCD',
      },
    ]);
    expect(await store.outbox.disabledSubscribers()).toEqual([]);

    // Still not fixed at the probe: still kept, however many probes.
    for (let probe = 0; probe < 12; probe += 1) {
      now += PAUSED_PROBE_MS;
      await engine.deliverDue();
    }
    expect(await store.outbox.listDeliveries({ status: 'dead' })).toEqual([]);

    sender.fixed = true;
    now += PAUSED_PROBE_MS;
    await engine.deliverDue();
    expect(await store.outbox.listDeliveries({ status: 'delivered' })).toHaveLength(3);
    expect(await store.outbox.pausedSubscribers()).toEqual([]);
  });
});
