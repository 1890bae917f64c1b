// The local delivery engine over a real SQLite outbox, with scripted senders standing in for receivers
// (the senders themselves, and both runtimes' engines, are tested against real loopback servers in the
// delivery conformance suite): each outcome lands in the outbox as the retry schedule says, a gone
// subscriber is disabled, a throw or a failed write stays with its subscriber, and a run waits only for
// retries due soon.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverUntilSettled } from '../../../shared/delivery/deliverUntilSettled.js';
import type { DeliveryOutcome, EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import { DeliveryRecordError } from '../../../shared/delivery/errors.js';
import { type DeliveryReport, OutboxDelivery } from '../../../shared/delivery/outboxDelivery.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
let now: number;
let store: SqliteStateStore;

/** A sender that answers from a script, one outcome per call, and remembers what it was sent. */
class ScriptedSender implements EventSender {
  readonly sent: string[] = [];
  constructor(private readonly script: DeliveryOutcome[]) {}
  async send(event: OrderEvent): Promise<DeliveryOutcome> {
    this.sent.push(event.id);
    return this.script.shift() ?? { kind: 'delivered', status: 200 };
  }
}

async function logEvent(type: OrderEvent['type'] = 'order.created'): Promise<OrderEvent> {
  const snapshot = makeSnapshot(newOrderUuid(), {
    status: type === 'order.canceled' ? 'canceled' : 'pending',
  });
  const event = makeEvent(ORG, snapshot.orderUuid, type);
  await store.commitChange(ORG, { snapshot, events: [event] });
  return event;
}

beforeEach(() => {
  now = T0;
  store = new SqliteStateStore({ path: ':memory:', clock: () => now, routeEvent: () => ['hook', 'kitchen'] });
});

afterEach(() => {
  store.close();
});

function engine(senders: Record<string, EventSender>, errors: unknown[] = []): OutboxDelivery {
  return new OutboxDelivery({
    outbox: store.outbox,
    senders: { senderFor: async (id) => senders[id] },
    clock: () => now,
    random: () => 0.5,
    onError: (error) => errors.push(error),
  });
}

function deliverDueWith(senders: Record<string, EventSender>): Promise<DeliveryReport[]> {
  return engine(senders).deliverDue();
}

describe('OutboxDelivery', () => {
  it('marks a delivered event delivered and leaves nothing due', async () => {
    const event = await logEvent();
    const reports = await deliverDueWith({ hook: new ScriptedSender([]), kitchen: new ScriptedSender([]) });
    expect(reports.map((r) => `${r.subscriberId} ${r.state}`).sort()).toEqual([
      'hook delivered',
      'kitchen delivered',
    ]);
    expect(
      (await store.outbox.listDeliveries()).every((d) => d.status === 'delivered' && d.eventId === event.id),
    ).toBe(true);
    expect(await store.outbox.queuedSubscribers()).toEqual([]);
  });

  it('requeues a transient failure on the schedule, and never before the receiver’s Retry-After', async () => {
    await logEvent();
    const hook = new ScriptedSender([{ kind: 'retry', reason: 'server error (500)', status: 500 }]);
    const kitchen = new ScriptedSender([
      { kind: 'retry', reason: 'rate limited (429)', retryAfterMs: 60_000 },
    ]);
    const reports = await deliverDueWith({ hook, kitchen });
    const byId = Object.fromEntries(reports.map((r) => [r.subscriberId, r]));
    expect(byId.hook).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: T0 + 5_000 });
    expect(byId.kitchen).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: T0 + 60_000 });
    expect((await store.outbox.listDeliveries({ status: 'queued' })).map((d) => d.lastError).sort()).toEqual([
      'rate limited (429)',
      'server error (500)',
    ]);
  });

  it('dead-letters a permanent failure at once, and a transient one when the schedule is spent', async () => {
    const event = await logEvent();
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await store.outbox.markFailed('kitchen', event.id, {
        attempts: attempt,
        nextAttemptAt: now,
        error: 'x',
        dead: false,
      });
    }
    const reports = await deliverDueWith({
      hook: new ScriptedSender([{ kind: 'dead', reason: 'rejected (400)', status: 400 }]),
      kitchen: new ScriptedSender([{ kind: 'retry', reason: 'timed out' }]),
    });
    expect(reports.map((r) => `${r.subscriberId} ${r.state} ${r.attempts}`).sort()).toEqual([
      'hook dead 1',
      'kitchen dead 8',
    ]);
    const dead = await store.outbox.listDeliveries({ status: 'dead' });
    expect(dead.map((d) => d.lastError).sort()).toEqual([
      'rejected (400)',
      'retry schedule spent after 8 attempts; last: timed out',
    ]);
  });

  it('disables a gone subscriber: its other queued deliveries become dead letters, others carry on', async () => {
    await logEvent();
    await logEvent('order.canceled');
    const hook = new ScriptedSender([{ kind: 'gone', reason: 'gone (410)', status: 410 }]);
    const kitchen = new ScriptedSender([]);
    await deliverDueWith({ hook, kitchen });
    expect(hook.sent).toHaveLength(1);
    expect(kitchen.sent).toHaveLength(2);
    expect((await store.outbox.disabledSubscribers()).map((s) => s.subscriberId)).toEqual(['hook']);
    const hookRows = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'hook');
    expect(hookRows.map((d) => d.status)).toEqual(['dead', 'dead']);
    await logEvent();
    expect((await store.outbox.listDeliveries({ status: 'queued' })).map((d) => d.subscriberId)).toEqual([
      'kitchen',
    ]);
  });

  it('dead-letters deliveries for a subscriber that left the config', async () => {
    await logEvent();
    const reports = await deliverDueWith({ kitchen: new ScriptedSender([]) });
    expect(reports.find((r) => r.subscriberId === 'hook')).toMatchObject({
      state: 'dead',
      outcome: { kind: 'dead', reason: 'subscriber is no longer in the config' },
    });
  });
});

describe('OutboxDelivery, when a part fails', () => {
  it('records a sender that throws as a retry with the error, and sends the other subscriber’s events once', async () => {
    const events = [await logEvent(), await logEvent(), await logEvent()];
    const hook: EventSender = {
      send: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    const kitchen = new ScriptedSender([]);
    const reports = await deliverDueWith({ hook, kitchen });

    expect(kitchen.sent).toEqual(events.map((event) => event.id));
    const hookRows = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'hook');
    expect(hookRows.map((d) => [d.status, d.attempts, d.lastError])).toEqual(
      events.map(() => ['queued', 1, 'the sender failed unexpectedly: cannot read properties of undefined']),
    );
    expect(reports.filter((r) => r.subscriberId === 'hook').map((r) => r.state)).toEqual([
      'queued',
      'queued',
      'queued',
    ]);
  });

  it('holds an outcome whose write failed, pauses only that subscriber, and records it before sending more', async () => {
    const [first, second] = [await logEvent(), await logEvent()];
    const errors: unknown[] = [];
    const hook = new ScriptedSender([]);
    const kitchen = new ScriptedSender([]);
    const markDelivered = store.outbox.markDelivered.bind(store.outbox);
    let failWrites = 1;
    store.outbox.markDelivered = async (subscriberId, eventId, nowMs) => {
      if (subscriberId === 'hook' && failWrites-- > 0) throw new Error('database is locked (SQLITE_BUSY)');
      return markDelivered(subscriberId, eventId, nowMs);
    };
    const delivery = engine({ hook, kitchen }, errors);

    await delivery.deliverDue();
    expect(hook.sent).toEqual([first?.id]);
    expect(kitchen.sent).toEqual([first?.id, second?.id]);
    expect(errors).toEqual([expect.any(DeliveryRecordError)]);
    expect(String((errors[0] as Error).message)).toMatch(/subscriber "hook": could not record .*SQLITE_BUSY/);
    // Paused: nothing is due for it until the pause is over, and the held outcome is not sent again.
    expect(await delivery.nextDueAt()).toBe(now + 1_000);

    now += 1_000;
    await delivery.deliverDue();
    expect(hook.sent).toEqual([first?.id, second?.id]);
    const hookRows = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'hook');
    expect(hookRows.map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('keeps delivering to a healthy subscriber while another’s attempt hangs', async () => {
    await logEvent();
    await logEvent();
    let release: (() => void) | undefined;
    const hanging: EventSender = {
      send: () =>
        new Promise((resolve) => {
          release = () => resolve({ kind: 'delivered', status: 200 });
        }),
    };
    let kitchenDone: () => void = () => {};
    const kitchenDelivered = new Promise<void>((resolve) => {
      kitchenDone = resolve;
    });
    const kitchen = new ScriptedSender([]);
    const stop = new AbortController();
    const delivery = new OutboxDelivery({
      outbox: store.outbox,
      senders: { senderFor: async (id) => (id === 'hook' ? hanging : kitchen) },
      clock: () => now,
      onDelivery: () => {
        if (kitchen.sent.length === 2) kitchenDone();
      },
    });
    const running = delivery.run(stop.signal);
    // Both of the kitchen's events go out while the hook's first attempt is still in flight.
    await kitchenDelivered;
    expect(release).toBeDefined();
    stop.abort();
    release?.();
    await running;
    const hookRows = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'hook');
    // The attempt in flight at the stop was finished and recorded; the next one was not begun.
    expect(hookRows.map((d) => d.status)).toEqual(['delivered', 'queued']);
  });
});

describe('deliverUntilSettled', () => {
  function settle(senders: Record<string, EventSender>, sleeps: number[]) {
    return deliverUntilSettled({
      delivery: engine(senders),
      clock: () => now,
      windowMs: 30_000,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
  }

  it('retries within the window what falls due in it, then stops', async () => {
    await logEvent();
    const sleeps: number[] = [];
    const hook = new ScriptedSender([{ kind: 'retry', reason: 'server error (500)' }]);
    const reports = await settle({ hook, kitchen: new ScriptedSender([]) }, sleeps);
    expect(sleeps).toEqual([5_000]);
    expect(hook.sent).toHaveLength(2);
    expect(reports.filter((r) => r.subscriberId === 'hook').map((r) => r.state)).toEqual([
      'queued',
      'delivered',
    ]);
  });

  it('leaves queued what is due after the window, without waiting for it', async () => {
    await logEvent();
    const sleeps: number[] = [];
    const failing: DeliveryOutcome = { kind: 'retry', reason: 'server error (503)' };
    const hook = new ScriptedSender([failing, failing, failing]);
    await settle({ hook, kitchen: new ScriptedSender([]) }, sleeps);
    expect(sleeps).toEqual([5_000]);
    expect(hook.sent).toHaveLength(2);
    const [queued] = await store.outbox.listDeliveries({ status: 'queued' });
    expect(queued).toMatchObject({ subscriberId: 'hook', attempts: 2, nextAttemptAt: T0 + 5_000 + 300_000 });
  });
});
