// The local outbox folds a person's stale deliveries into one catch-up, over a real SQLite outbox with
// scripted senders: stale at detection (the runner was stopped) or gone stale while queued (Slack was
// down), each folded delivery recorded as delivered by the catch-up, never dropped nor sent twice; a
// catch-up still queued absorbed by the next; a webhook, and a person with catchUpAfter false, get every
// event; status sees a person whose backlog is older than its catchUpAfter.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATCH_UP_CANDIDATES_BATCH } from '../../../shared/delivery/deliveryOutbox.js';
import type { DeliveryOutcome, EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import {
  type CatchUpReport,
  type DeliveryReport,
  OutboxDelivery,
} from '../../../shared/delivery/outboxDelivery.js';
import { type CatchUpEvent, isCatchUp } from '../../../shared/events/catchUpEvent.js';
import type { NotifierEvent } from '../../../shared/events/notifierEvent.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
const MINUTE = 60_000;
let now: number;
let store: SqliteStateStore;

class ScriptedSender implements EventSender {
  readonly sent: NotifierEvent[] = [];
  constructor(private readonly script: DeliveryOutcome[] = []) {}
  async send(event: NotifierEvent): Promise<DeliveryOutcome> {
    this.sent.push(event);
    return this.script.shift() ?? { kind: 'delivered', status: 200 };
  }
}

/** An event detected at `now`, its change `ago` ms before at the source (undefined: the API did not say). */
async function logEvent(ago: number | undefined): Promise<OrderEvent> {
  const snapshot = makeSnapshot(newOrderUuid());
  const event = { ...makeEvent(ORG, snapshot.orderUuid, 'order.created'), time: new Date(now).toISOString() };
  const sourceTimes = ago === undefined ? {} : { [event.id]: now - ago };
  await store.commitChange(ORG, { snapshot, events: [event], sourceTimes });
  return event;
}

beforeEach(() => {
  now = T0;
  store = new SqliteStateStore({
    path: ':memory:',
    clock: () => now,
    routeEvent: () => ['hook', 'kitchen', 'everything'],
  });
});

afterEach(() => {
  store.close();
});

function engine(senders: Record<string, EventSender>, catchUps: CatchUpReport[] = []): OutboxDelivery {
  const thresholds: Record<string, number> = { kitchen: 15 * MINUTE };
  return new OutboxDelivery({
    outbox: store.outbox,
    senders: { senderFor: async (id) => senders[id] },
    clock: () => now,
    random: () => 0.5,
    catchUps: { catchUpAfterMs: (id) => thresholds[id], timeZoneOf: () => 'Europe/Lisbon' },
    onCatchUp: (report) => catchUps.push(report),
  });
}

const ids = (events: readonly NotifierEvent[]) => events.map(({ id }) => id);

describe('the outbox after an outage', () => {
  it('sends a person one catch-up instead of the events stale when found, and a webhook every event', async () => {
    const stale = [await logEvent(40 * MINUTE), await logEvent(30 * MINUTE), await logEvent(16 * MINUTE)];
    const timely = [await logEvent(5 * MINUTE), await logEvent(undefined)];
    const senders = {
      hook: new ScriptedSender(),
      kitchen: new ScriptedSender(),
      everything: new ScriptedSender(),
    };
    const folds: CatchUpReport[] = [];

    const reports = await engine(senders, folds).deliverDue();

    expect(ids(senders.hook.sent)).toEqual(ids([...stale, ...timely]));
    // No threshold: a person with catchUpAfter false gets them all too.
    expect(ids(senders.everything.sent)).toEqual(ids([...stale, ...timely]));
    const [catchUp, ...rest] = senders.kitchen.sent;
    expect(isCatchUp(catchUp as NotifierEvent)).toBe(true);
    expect((catchUp as CatchUpEvent).data).toMatchObject({
      subscriber_id: 'kitchen',
      events: 3,
      found_late: 3,
      event_ids: ids(stale),
      first_change_at: '2026-03-05T11:20:00+00:00',
    });
    expect(ids(rest)).toEqual(ids(timely));
    expect(folds).toEqual([
      { subscriberId: 'kitchen', organizationId: ORG, catchUpId: catchUp?.id, folded: ids(stale), events: 3 },
    ]);
    // Every event id delivered to the kitchen exactly once: three by the catch-up, two by themselves.
    const kitchen = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'kitchen');
    expect(kitchen.every((d) => d.status === 'delivered')).toBe(true);
    expect(kitchen.filter((d) => d.foldedInto === catchUp?.id).map((d) => d.eventId)).toEqual(ids(stale));
    expect(kitchen.filter((d) => d.foldedInto === undefined).map((d) => d.eventId)).toEqual([
      ...ids(timely),
      catchUp?.id,
    ]);
    expect(reports.filter((r) => r.subscriberId === 'kitchen').map((r) => r.eventId)).toEqual([
      catchUp?.id,
      ...ids(timely),
    ]);
  });

  it('folds what went stale while Slack was down into one catch-up, however many times it retried', async () => {
    const down: DeliveryOutcome = { kind: 'retry', reason: 'server error (503)', status: 503 };
    let slackUp = false;
    const kitchen = new (class extends ScriptedSender {
      override async send(event: NotifierEvent): Promise<DeliveryOutcome> {
        this.sent.push(event);
        return slackUp ? { kind: 'delivered', status: 200 } : down;
      }
    })();
    const senders = { hook: new ScriptedSender(), kitchen, everything: new ScriptedSender() };
    const folds: CatchUpReport[] = [];
    const delivery = engine(senders, folds);
    const logged: OrderEvent[] = [];
    // An event a minute, each found in time; Slack answers 503 to all of it, retried on its schedule.
    for (let minute = 0; minute < 40; minute += 1) {
      now = T0 + minute * MINUTE;
      logged.push(await logEvent(10_000));
      await delivery.deliverDue();
    }
    // Slack is back: from the next retry that falls due, the runner delivers all it owes.
    kitchen.sent.length = 0;
    slackUp = true;
    const reports: DeliveryReport[] = [];
    for (let next = await delivery.nextDueAt(); next !== undefined; next = await delivery.nextDueAt()) {
      now = Math.max(now, next);
      reports.push(...(await delivery.deliverDue()));
    }

    // One catch-up, sent first, for what went stale; the events of its last 15 minutes one by one.
    const [catchUp, ...individually] = kitchen.sent;
    expect(isCatchUp(catchUp as NotifierEvent)).toBe(true);
    expect(individually.filter(isCatchUp)).toEqual([]);
    const data = (catchUp as CatchUpEvent).data;
    expect(data.found_late).toBe(0);
    expect(individually.length).toBeLessThanOrEqual(16);
    // Every event delivered to the kitchen exactly once: in the catch-up (through those it absorbed) or by
    // itself, never both, never lost.
    const deliveries = (await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'kitchen');
    const ofEvents = deliveries.filter((d) => logged.some((event) => event.id === d.eventId));
    expect(ofEvents).toHaveLength(40);
    expect(ofEvents.every((d) => d.status === 'delivered')).toBe(true);
    const folded = ofEvents.filter((d) => d.foldedInto !== undefined).map((d) => d.eventId);
    expect(new Set(data.event_ids)).toEqual(new Set(folded));
    expect(data.events).toBe(folded.length);
    expect([...folded, ...ids(individually)].sort()).toEqual(ids(logged).sort());
    // Each catch-up composed while Slack was down was absorbed by the next, the last one sent.
    expect(folds.length).toBeGreaterThan(1);
    expect(folds.at(-1)).toMatchObject({ catchUpId: catchUp?.id, absorbed: folds.at(-2)?.catchUpId });
    expect(reports.filter((r) => r.subscriberId === 'kitchen').every((r) => r.state === 'delivered')).toBe(
      true,
    );
    // The webhook got each event as it came.
    expect(ids(senders.hook.sent)).toEqual(ids(logged));
  });

  // Logs and folds thousands of events: seconds on a busy 2-core machine.
  it('folds a backlog of thousands, read a batch at a time, into one catch-up that holds each event once', {
    timeout: 60_000,
  }, async () => {
    store.close();
    store = new SqliteStateStore({ path: ':memory:', clock: () => now, routeEvent: () => ['kitchen'] });
    // The runner was down for a day: 2,345 order changes logged, then an hour before Slack is reached.
    const backlog = Array.from({ length: 2 * CATCH_UP_CANDIDATES_BATCH + 345 }, () => ({
      ...makeEvent(ORG, newOrderUuid(), 'order.created'),
      time: new Date(now).toISOString(),
    }));
    await store.recordEvents(ORG, backlog);
    now += 60 * MINUTE;
    const kitchen = new ScriptedSender();
    const folds: CatchUpReport[] = [];

    await engine({ kitchen }, folds).deliverDue();

    // Three reads, each folded in order, each catch-up absorbed by the next.
    expect(folds.map(({ folded }) => folded.length)).toEqual([
      CATCH_UP_CANDIDATES_BATCH,
      CATCH_UP_CANDIDATES_BATCH,
      345,
    ]);
    expect(folds.flatMap(({ folded }) => folded)).toEqual(ids(backlog));
    expect(folds[1]?.absorbed).toBe(folds[0]?.catchUpId);
    expect(folds[2]?.absorbed).toBe(folds[1]?.catchUpId);
    // The person gets one message, standing for every event of the backlog.
    expect(kitchen.sent).toHaveLength(1);
    const [catchUp] = kitchen.sent;
    expect(catchUp?.id).toBe(folds[2]?.catchUpId);
    expect((catchUp as CatchUpEvent).data).toMatchObject({ events: backlog.length, event_ids: ids(backlog) });
    // Each event's delivery is delivered once, by the catch-up of its batch; none is left queued.
    const deliveries = await store.outbox.listDeliveries();
    expect(deliveries).toHaveLength(backlog.length + folds.length);
    expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
    const foldedInto = new Map(deliveries.map((d) => [d.eventId, d.foldedInto]));
    expect(backlog.map((event) => foldedInto.get(event.id))).toEqual(
      backlog.map((_, index) => folds[Math.floor(index / CATCH_UP_CANDIDATES_BATCH)]?.catchUpId),
    );
  });

  it('tells status how far behind each subscriber is: a catch-up counts from its first change', async () => {
    await logEvent(40 * MINUTE);
    await logEvent(undefined);
    const backlogs = await store.outbox.backlogs();
    expect(backlogs).toEqual([
      { subscriberId: 'everything', queued: 2, oldestChangeAt: T0 - 40 * MINUTE },
      { subscriberId: 'hook', queued: 2, oldestChangeAt: T0 - 40 * MINUTE },
      { subscriberId: 'kitchen', queued: 2, oldestChangeAt: T0 - 40 * MINUTE },
    ]);
    const down: DeliveryOutcome = { kind: 'retry', reason: 'server error (503)', status: 503 };
    await engine({ kitchen: new ScriptedSender([down, down]) }).deliverDue();
    expect((await store.outbox.backlogs()).find((b) => b.subscriberId === 'kitchen')).toEqual({
      subscriberId: 'kitchen',
      queued: 2,
      oldestChangeAt: T0 - 40 * MINUTE,
    });
  });
});
