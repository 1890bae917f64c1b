import { describe, expect, it } from 'vitest';
import { DeliveryGate } from '../../../cli/runtime/deliveryGate.js';
import { RunnerStoppingError } from '../../../cli/runtime/stoppableSleep.js';
import type { DeliveryOutbox, DueDelivery } from '../../../shared/delivery/deliveryOutbox.js';
import type { DeliveryOutcome, EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const event = makeOrderEvent();

function outbox(due: DueDelivery[]): DeliveryOutbox & { delivered: string[] } {
  const delivered: string[] = [];
  return {
    delivered,
    dueDeliveries: async () => due,
    markDelivered: async (_subscriber, eventId) => {
      delivered.push(eventId);
      return true;
    },
    markFailed: async () => true,
    disableSubscriber: async () => {},
    nextDeliveryDueAt: async () => undefined,
  };
}

const due: DueDelivery = {
  subscriberId: 'automation',
  eventId: event.id,
  status: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  deliveredAt: null,
  organizationId: 'org',
  event,
};

describe('the delivery gate', () => {
  it('hands out nothing due and starts no attempt once stopped', async () => {
    const stop = new AbortController();
    const gate = new DeliveryGate(stop.signal);
    let sent = 0;
    const sender: EventSender = {
      send: async () => {
        sent += 1;
        return { kind: 'delivered' };
      },
    };
    const gated = gate.senders(new Map([['automation', sender]]));
    const gatedOutbox = gate.outbox(outbox([due]));
    expect(await gatedOutbox.dueDeliveries(0, 10)).toEqual([due]);
    stop.abort();
    expect(await gatedOutbox.dueDeliveries(0, 10)).toEqual([]);
    await expect(gated.get('automation')?.send(event)).rejects.toBeInstanceOf(RunnerStoppingError);
    expect(sent).toBe(0);
  });

  it('waits for the attempt in flight, and its recorded outcome, before it settles', async () => {
    const stop = new AbortController();
    const gate = new DeliveryGate(stop.signal);
    let answer: (outcome: DeliveryOutcome) => void = () => {};
    const sender: EventSender = {
      send: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    };
    const store = outbox([due]);
    const gated = gate.senders(new Map([['automation', sender]]));
    // What drainOutbox does: send, then record the outcome.
    const attempt = (async () => {
      const outcome = await gated.get('automation')?.send(event);
      if (outcome?.kind === 'delivered') await store.markDelivered('automation', event.id, 0);
    })();
    stop.abort();
    let settled = false;
    const settling = gate.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    answer({ kind: 'delivered' });
    await settling;
    expect(store.delivered).toEqual([event.id]);
    await attempt;
  });
});
