import { describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import { contentOf, SnapshotSchema } from '../../../shared/detect/snapshot.js';
import { OrderEventSchema } from '../../../shared/events/orderEvent.js';
import {
  diffContext,
  EXPIRES_AT,
  laterOrder,
  parsedOrder,
  snapshotOf,
  statusOf,
} from '../../support/detectFixtures.js';
import { makeOrder, makeOrderItem } from '../../support/orderFactory.js';

const COMPLETED_AT = '2026-03-05T12:30:00.000000Z';
const CANCELED_AT = '2026-03-05T08:00:00.000000Z';
const LATER = '2026-03-05T12:30:00.000000Z';

const types = (diff: ReturnType<typeof diffOrder>) => diff.events.map((event) => event.type);

describe('diffOrder: an order seen for the first time', () => {
  it('records a baseline order silently, as snapshot version 1', () => {
    const order = parsedOrder({ status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const diff = diffOrder(undefined, order, diffContext({ baseline: true }));
    expect(diff.events).toEqual([]);
    expect(diff.snapshot).toEqual({
      orderUuid: order.uuid,
      status: 'canceled',
      canceledAt: CANCELED_AT,
      completedAt: null,
      pickupDate: '2026-03-05',
      establishmentUuid: order.establishment.uuid,
      paymentMethod: 'card',
      createdAt: order.created_at,
      updatedAt: order.updated_at,
      content: contentOf(order),
      missingSince: null,
      version: 1,
      expiresAt: EXPIRES_AT,
    });
    expect(SnapshotSchema.safeParse(diff.snapshot).success).toBe(true);
  });

  it('announces a new pending order after the baseline as order.created', () => {
    const order = parsedOrder();
    const diff = diffOrder(undefined, order, diffContext({ baseline: false }));
    expect(types(diff)).toEqual(['order.created']);
    expect(diff.events[0]?.data.order.status).toBe('pending');
    expect(diff.snapshot?.version).toBe(1);
    expect(diff.snapshot?.status).toBe('pending');
  });

  it('announces an order first seen already canceled as created, then canceled', () => {
    const order = parsedOrder({ status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const diff = diffOrder(undefined, order, diffContext());
    expect(types(diff)).toEqual(['order.created', 'order.canceled']);
    expect(diff.snapshot?.status).toBe('canceled');
  });

  it('announces an order first seen already completed as created, then completed', () => {
    const order = parsedOrder({ status: statusOf('completed'), completed_at: COMPLETED_AT });
    expect(types(diffOrder(undefined, order, diffContext()))).toEqual(['order.created', 'order.completed']);
  });

  it('takes the pickup date of a new order in its normalized form', () => {
    const order = OrderSchema.parse(makeOrder({ pickup_at: '05/03/26' }));
    const diff = diffOrder(undefined, order, diffContext());
    expect(diff.snapshot?.pickupDate).toBe('2026-03-05');
    expect(diff.events[0]?.data.order.pickup_date).toBe('2026-03-05');
  });
});

describe('diffOrder: status transitions', () => {
  it('turns pending → completed into one order.completed with status and completed_at changes', () => {
    const pending = parsedOrder();
    const completed = laterOrder(pending, {
      status: statusOf('completed'),
      completed_at: COMPLETED_AT,
      updated_at: LATER,
    });
    const diff = diffOrder(snapshotOf(pending), completed, diffContext());
    expect(types(diff)).toEqual(['order.completed']);
    expect(diff.events[0]?.data.changes).toEqual([
      { field: 'status', from: 'pending', to: 'completed' },
      { field: 'completed_at', from: null, to: COMPLETED_AT },
    ]);
    expect(diff.snapshot).toMatchObject({ status: 'completed', completedAt: COMPLETED_AT, updatedAt: LATER });
  });

  it('turns pending → canceled into one order.canceled', () => {
    const pending = parsedOrder();
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const diff = diffOrder(snapshotOf(pending), canceled, diffContext());
    expect(types(diff)).toEqual(['order.canceled']);
    expect(diff.events[0]?.data.changes).toEqual([
      { field: 'status', from: 'pending', to: 'canceled' },
      { field: 'canceled_at', from: null, to: CANCELED_AT },
    ]);
  });

  it('turns completed → archived into one order.archived', () => {
    const completed = parsedOrder({ status: statusOf('completed'), completed_at: COMPLETED_AT });
    const archived = laterOrder(completed, { status: statusOf('archived') });
    const diff = diffOrder(snapshotOf(completed), archived, diffContext());
    expect(types(diff)).toEqual(['order.archived']);
    expect(diff.events[0]?.data.changes).toEqual([{ field: 'status', from: 'completed', to: 'archived' }]);
  });

  it('reports the completion it missed when a pending order is next seen archived with completed_at', () => {
    const pending = parsedOrder();
    const archived = laterOrder(pending, { status: statusOf('archived'), completed_at: COMPLETED_AT });
    const diff = diffOrder(snapshotOf(pending), archived, diffContext());
    expect(types(diff)).toEqual(['order.completed', 'order.archived']);
    expect(diff.snapshot?.status).toBe('archived');
  });

  it('reports the cancellation it missed when a pending order is next seen archived with canceled_at', () => {
    const pending = parsedOrder();
    const archived = laterOrder(pending, { status: statusOf('archived'), canceled_at: CANCELED_AT });
    expect(types(diffOrder(snapshotOf(pending), archived, diffContext()))).toEqual([
      'order.canceled',
      'order.archived',
    ]);
  });

  it('reports only the archive when pending → archived carries no completion or cancellation', () => {
    const pending = parsedOrder();
    const archived = laterOrder(pending, { status: statusOf('archived') });
    expect(types(diffOrder(snapshotOf(pending), archived, diffContext()))).toEqual(['order.archived']);
  });

  it('does not repeat the cancellation when a canceled order is archived', () => {
    const canceled = parsedOrder({ status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const archived = laterOrder(canceled, { status: statusOf('archived') });
    expect(types(diffOrder(snapshotOf(canceled), archived, diffContext()))).toEqual(['order.archived']);
  });

  it('turns a regression completed → pending into order.status_changed', () => {
    const completed = parsedOrder({ status: statusOf('completed'), completed_at: COMPLETED_AT });
    const reopened = laterOrder(completed, {
      status: statusOf('pending'),
      completed_at: null,
      updated_at: LATER,
    });
    const diff = diffOrder(snapshotOf(completed), reopened, diffContext());
    expect(types(diff)).toEqual(['order.status_changed']);
    expect(diff.events[0]?.data.changes).toEqual([
      { field: 'status', from: 'completed', to: 'pending' },
      { field: 'completed_at', from: COMPLETED_AT, to: null },
    ]);
  });

  it('turns a status the spec does not list (refunded) into order.status_changed', () => {
    const pending = parsedOrder();
    const refunded = laterOrder(pending, { status: { label: 'Refunded', value: 'refunded' } });
    const diff = diffOrder(snapshotOf(pending), refunded, diffContext());
    expect(types(diff)).toEqual(['order.status_changed']);
    expect(diff.events[0]?.data.order.status).toBe('refunded');
    expect(OrderEventSchema.safeParse(diff.events[0]).success).toBe(true);
  });
});

describe('diffOrder: no status change', () => {
  it('writes nothing and announces nothing for an unchanged order', () => {
    const order = parsedOrder();
    const diff = diffOrder(snapshotOf(order), laterOrder(order), diffContext());
    expect(diff).toEqual({ events: [], snapshot: undefined });
  });

  it('ignores a change of updated_at alone, or of a field a kitchen does not cook from', () => {
    const order = parsedOrder();
    const touched = laterOrder(order, { updated_at: LATER, can_be_cancelled: false });
    expect(diffOrder(snapshotOf(order), touched, diffContext())).toEqual({ events: [], snapshot: undefined });
  });

  it('treats a pickup_at format flip (DD/MM/YY vs YYYY-MM-DD) as no change', () => {
    const input = makeOrder({ pickup_at: '2026-03-05' });
    const before = OrderSchema.parse(input);
    const after = OrderSchema.parse({ ...input, pickup_at: '05/03/26' });
    expect(diffOrder(snapshotOf(before), after, diffContext())).toEqual({ events: [], snapshot: undefined });
    // And the other way round.
    expect(diffOrder(snapshotOf(after), before, diffContext())).toEqual({ events: [], snapshot: undefined });
  });

  it('clears missingSince without an event when a missing order is seen again unchanged', () => {
    const order = parsedOrder();
    const previous = snapshotOf(order, { missingSince: '2026-03-04T10:00:00.000Z', version: 3 });
    const diff = diffOrder(previous, laterOrder(order), diffContext());
    expect(diff.events).toEqual([]);
    expect(diff.snapshot).toEqual({ ...previous, missingSince: null, version: 4 });
  });

  it('announces the transition of a missing order that reappears changed, and clears missingSince', () => {
    const pending = parsedOrder();
    const previous = snapshotOf(pending, { missingSince: '2026-03-04T10:00:00.000Z' });
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const diff = diffOrder(previous, canceled, diffContext());
    expect(types(diff)).toEqual(['order.canceled']);
    expect(diff.snapshot?.missingSince).toBeNull();
  });

  it('still announces a transition of a known order during a baseline cycle', () => {
    // The baseline flag silences orders never seen before, not moves of orders already remembered.
    const pending = parsedOrder();
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    expect(types(diffOrder(snapshotOf(pending), canceled, diffContext({ baseline: true })))).toEqual([
      'order.canceled',
    ]);
  });
});

const SECOND_CANTEEN = { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Second canteen' };

/** A summary-sent predicate that answers yes for the listed establishment/date pairs only. */
function summariesSentFor(...days: Array<[string, string]>): (uuid: string, date: string) => boolean {
  return (uuid, date) => days.some(([sentUuid, sentDate]) => sentUuid === uuid && sentDate === date);
}

describe('diffOrder: reschedules', () => {
  it('turns a pickup date move with no status change into order.rescheduled, from → to', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05' });
    const moved = laterOrder(order, { pickup_at: '09/03/26', updated_at: LATER });
    const diff = diffOrder(snapshotOf(order, { version: 4 }), moved, diffContext());
    expect(types(diff)).toEqual(['order.rescheduled']);
    expect(diff.events[0]?.data.changes).toEqual([
      { field: 'pickup_date', from: '2026-03-05', to: '2026-03-09' },
    ]);
    expect(diff.events[0]?.data.order.pickup_date).toBe('2026-03-09');
    expect(diff.snapshot).toMatchObject({ pickupDate: '2026-03-09', version: 5, missingSince: null });
    expect(OrderEventSchema.safeParse(diff.events[0]).success).toBe(true);
  });

  it('turns an establishment move into order.rescheduled, naming both establishments where known', () => {
    const order = parsedOrder();
    const elsewhere = laterOrder(order, { establishment: SECOND_CANTEEN });
    const names: Record<string, string> = { [order.establishment.uuid]: 'Main canteen' };
    const diff = diffOrder(
      snapshotOf(order, { version: 2 }),
      elsewhere,
      diffContext({ establishmentName: (uuid) => names[uuid] }),
    );
    expect(types(diff)).toEqual(['order.rescheduled']);
    expect(diff.events[0]?.data.changes).toEqual([
      {
        field: 'establishment',
        from: order.establishment.uuid,
        to: SECOND_CANTEEN.uuid,
        from_name: 'Main canteen',
        to_name: 'Second canteen',
      },
    ]);
    expect(diff.snapshot).toMatchObject({ establishmentUuid: SECOND_CANTEEN.uuid, version: 3 });
  });

  it('leaves out the name of the establishment left when nothing knows it', () => {
    const order = parsedOrder();
    const diff = diffOrder(
      snapshotOf(order),
      laterOrder(order, { establishment: SECOND_CANTEEN }),
      diffContext(),
    );
    expect(diff.events[0]?.data.changes[0]).toEqual({
      field: 'establishment',
      from: order.establishment.uuid,
      to: SECOND_CANTEEN.uuid,
      to_name: 'Second canteen',
    });
  });

  it('makes one order.rescheduled with both changes when date and establishment move together', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05' });
    const moved = laterOrder(order, { pickup_at: '2026-03-06', establishment: SECOND_CANTEEN });
    const diff = diffOrder(snapshotOf(order), moved, diffContext());
    expect(types(diff)).toEqual(['order.rescheduled']);
    expect(diff.events[0]?.data.changes.map((change) => [change.field, change.from, change.to])).toEqual([
      ['pickup_date', '2026-03-05', '2026-03-06'],
      ['establishment', order.establishment.uuid, SECOND_CANTEEN.uuid],
    ]);
  });

  it('tells a move with a status change by the status event alone, whose changes say where it moved', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05' });
    const canceled = laterOrder(order, {
      pickup_at: '2026-03-06',
      status: statusOf('canceled'),
      canceled_at: CANCELED_AT,
    });
    const diff = diffOrder(snapshotOf(order), canceled, diffContext());
    expect(types(diff)).toEqual(['order.canceled']);
    expect(diff.events[0]?.data.changes).toContainEqual({
      field: 'pickup_date',
      from: '2026-03-05',
      to: '2026-03-06',
    });
  });

  it('announces nothing for an establishment uuid that only changed letter case', () => {
    const order = parsedOrder();
    const shouting = laterOrder(order, {
      establishment: { ...order.establishment, uuid: order.establishment.uuid.toUpperCase() },
    });
    expect(diffOrder(snapshotOf(order), shouting, diffContext())).toEqual({
      events: [],
      snapshot: undefined,
    });
  });

  it('gives a repeat sighting of the same move the same id', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05' });
    const moved = laterOrder(order, { pickup_at: '2026-03-09', updated_at: LATER });
    const first = diffOrder(
      snapshotOf(order),
      moved,
      diffContext({ detectedAt: '2026-03-05T10:00:00.000Z' }),
    );
    const second = diffOrder(
      snapshotOf(order, { version: 9 }),
      laterOrder(moved),
      diffContext({ detectedAt: '2026-03-05T10:05:00.000Z' }),
    );
    expect(second.events[0]?.id).toBe(first.events[0]?.id);
  });

  it('gives each move of an order moved back and forth its own id', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05', updated_at: '2026-03-05T08:00:00.000000Z' });
    const there = laterOrder(order, { pickup_at: '2026-03-09', updated_at: '2026-03-05T09:00:00.000000Z' });
    const back = laterOrder(there, { pickup_at: '2026-03-05', updated_at: '2026-03-05T10:00:00.000000Z' });
    const again = laterOrder(back, { pickup_at: '2026-03-09', updated_at: '2026-03-05T11:00:00.000000Z' });
    const ids = [
      diffOrder(snapshotOf(order), there, diffContext()).events[0]?.id,
      diffOrder(snapshotOf(there), back, diffContext()).events[0]?.id,
      diffOrder(snapshotOf(back), again, diffContext()).events[0]?.id,
    ];
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it('never gives a reschedule the id of a status event of the same order', () => {
    const order = parsedOrder({ pickup_at: '2026-03-05' });
    const moved = laterOrder(order, { pickup_at: '2026-03-09', updated_at: LATER });
    const canceled = laterOrder(order, {
      status: statusOf('canceled'),
      canceled_at: null,
      updated_at: LATER,
    });
    const rescheduled = diffOrder(snapshotOf(order), moved, diffContext()).events[0];
    const status = diffOrder(snapshotOf(order), canceled, diffContext()).events[0];
    expect(rescheduled?.id).not.toBe(status?.id);
  });
});

describe('diffOrder: after closing', () => {
  const PICKUP = '2026-03-05';

  it('leaves the flag out while no summary of the order’s day was sent', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const [event] = diffOrder(undefined, order, diffContext()).events;
    expect(event?.data).not.toHaveProperty('after_closing');
  });

  it('flags a new order for a day whose summary was already sent', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    const [event] = diffOrder(undefined, order, diffContext({ summarySent: sent })).events;
    expect(event?.type).toBe('order.created');
    expect(event?.data.after_closing).toBe(true);
    expect(OrderEventSchema.safeParse(event).success).toBe(true);
  });

  it('flags every event of a cancellation after closing, including one inferred', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const archived = laterOrder(order, { status: statusOf('archived'), canceled_at: CANCELED_AT });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    const diff = diffOrder(snapshotOf(order), archived, diffContext({ summarySent: sent }));
    expect(types(diff)).toEqual(['order.canceled', 'order.archived']);
    expect(diff.events.map((event) => event.data.after_closing)).toEqual([true, true]);
  });

  it('does not flag an order of another establishment or another day', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const sent = summariesSentFor([SECOND_CANTEEN.uuid, PICKUP], [order.establishment.uuid, '2026-03-06']);
    const [event] = diffOrder(undefined, order, diffContext({ summarySent: sent })).events;
    expect(event?.data).not.toHaveProperty('after_closing');
  });

  it('flags an order moved into another establishment’s day after that day’s summary', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const moved = laterOrder(order, { establishment: SECOND_CANTEEN });
    const sent = summariesSentFor([SECOND_CANTEEN.uuid, PICKUP]);
    const [event] = diffOrder(snapshotOf(order), moved, diffContext({ summarySent: sent })).events;
    expect(event?.type).toBe('order.rescheduled');
    expect(event?.data.after_closing).toBe(true);
  });

  it('flags an order moved into a closed day of the same establishment', () => {
    const order = parsedOrder({ pickup_at: '2026-03-06' });
    const moved = laterOrder(order, { pickup_at: PICKUP });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    const [event] = diffOrder(snapshotOf(order), moved, diffContext({ summarySent: sent })).events;
    expect(event?.data.after_closing).toBe(true);
  });

  it('flags an order moved out of a day whose summary counted it, for the kitchen that lost it', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const moved = laterOrder(order, { pickup_at: '2026-03-06' });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    const [event] = diffOrder(snapshotOf(order), moved, diffContext({ summarySent: sent })).events;
    expect(event?.type).toBe('order.rescheduled');
    expect(event?.data.after_closing).toBe(true);
  });

  it('asks about the day the order is in (and left), and never about others', () => {
    const asked: string[] = [];
    const order = parsedOrder({ pickup_at: PICKUP });
    const moved = laterOrder(order, { pickup_at: '2026-03-06', establishment: SECOND_CANTEEN });
    diffOrder(
      snapshotOf(order),
      moved,
      diffContext({
        summarySent: (uuid, date) => {
          asked.push(`${uuid} ${date}`);
          return false;
        },
      }),
    );
    expect(asked).toEqual([`${SECOND_CANTEEN.uuid} 2026-03-06`, `${order.establishment.uuid} ${PICKUP}`]);
  });

  it('keeps the same id whether or not the event came after closing', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    const late = diffOrder(undefined, order, diffContext({ summarySent: sent })).events[0];
    const inTime = diffOrder(undefined, order, diffContext()).events[0];
    expect(late?.id).toBe(inTime?.id);
  });

  it('stays silent for a baseline order, after closing or not', () => {
    const order = parsedOrder({ pickup_at: PICKUP });
    const sent = summariesSentFor([order.establishment.uuid, PICKUP]);
    expect(diffOrder(undefined, order, diffContext({ baseline: true, summarySent: sent })).events).toEqual(
      [],
    );
  });
});

describe('diffOrder: snapshots and ids', () => {
  it('increments the version from the previous snapshot and takes the new expiry', () => {
    const pending = parsedOrder();
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const diff = diffOrder(snapshotOf(pending, { version: 41, expiresAt: 1 }), canceled, diffContext());
    expect(diff.snapshot?.version).toBe(42);
    expect(diff.snapshot?.expiresAt).toBe(EXPIRES_AT);
  });

  it('gives the same transition, diffed twice (e.g. by two runs), the same event ids', () => {
    const pending = parsedOrder();
    const archived = laterOrder(pending, { status: statusOf('archived'), completed_at: COMPLETED_AT });
    const first = diffOrder(
      snapshotOf(pending),
      archived,
      diffContext({ detectedAt: '2026-03-05T10:00:00.000Z' }),
    );
    const second = diffOrder(
      snapshotOf(pending, { version: 7 }),
      laterOrder(archived),
      diffContext({ detectedAt: '2026-03-05T10:01:00.000Z' }),
    );
    expect(first.events.map((event) => event.id)).toEqual(second.events.map((event) => event.id));
    expect(first.events).toHaveLength(2);
  });

  it('gives the same order.created id whichever status the new order is first seen in', () => {
    const order = parsedOrder();
    const later = laterOrder(order, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const [created] = diffOrder(undefined, order, diffContext()).events;
    const [createdLate] = diffOrder(undefined, later, diffContext()).events;
    expect(createdLate?.type).toBe('order.created');
    expect(createdLate?.id).toBe(created?.id);
  });

  it('gives different ids to the same transition of two organizations', () => {
    const pending = parsedOrder();
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const north = diffOrder(snapshotOf(pending), canceled, diffContext()).events[0];
    const south = diffOrder(
      snapshotOf(pending),
      canceled,
      diffContext({ organization: { id: 'other-org', name: 'South School' } }),
    ).events[0];
    expect(south?.id).not.toBe(north?.id);
  });

  it('gives a second, later cancellation of a reopened order a new id', () => {
    const pending = parsedOrder();
    const first = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const second = laterOrder(pending, { status: statusOf('canceled'), canceled_at: LATER });
    const a = diffOrder(snapshotOf(pending), first, diffContext()).events[0];
    const b = diffOrder(snapshotOf(pending), second, diffContext()).events[0];
    expect(b?.id).not.toBe(a?.id);
  });

  it('gives two regressions at different updated_at different order.status_changed ids', () => {
    const completed = parsedOrder({ status: statusOf('completed'), completed_at: COMPLETED_AT });
    const reopen = (updatedAt: string) =>
      diffOrder(
        snapshotOf(completed),
        laterOrder(completed, { status: statusOf('pending'), completed_at: null, updated_at: updatedAt }),
        diffContext(),
      ).events[0];
    expect(reopen(LATER)?.id).toBe(reopen(LATER)?.id);
    expect(reopen('2026-03-06T09:00:00.000000Z')?.id).not.toBe(reopen(LATER)?.id);
  });

  it('does not mutate the previous snapshot or the order', () => {
    const pending = parsedOrder();
    const previous = snapshotOf(pending);
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const before = structuredClone({ previous, canceled });
    diffOrder(previous, canceled, diffContext());
    expect({ previous, canceled }).toEqual(before);
  });
});

describe('diffOrder: the content of an order that stays where it was (order.updated)', () => {
  const LASAGNE = { sku: 'LASAGNE', name: 'Lasagne' };
  const pending = () => parsedOrder({ items: [makeOrderItem({ ...LASAGNE, quantity: 1 })] });
  const changesOf = (diff: ReturnType<typeof diffOrder>) => diff.events[0]?.data.changes;
  const lineOf = (order: ReturnType<typeof pending>) => {
    const [line] = order.items;
    if (!line) throw new Error('the order has a line');
    return line;
  };

  it('announces a second lasagne as one order.updated, from 1 to 2, with the whole order', () => {
    const order = pending();
    const line = lineOf(order);
    const later = laterOrder(order, { updated_at: LATER, items: [{ ...line, quantity: 2 }] });
    const diff = diffOrder(snapshotOf(order), later, diffContext());
    expect(types(diff)).toEqual(['order.updated']);
    expect(changesOf(diff)).toEqual([{ field: 'items', sku: 'LASAGNE', name: 'Lasagne', from: 1, to: 2 }]);
    expect(diff.events[0]?.data.order.items[0]).toMatchObject({ sku: 'LASAGNE', quantity: 2 });
    expect(diff.snapshot?.content?.lines[0]?.quantity).toBe(2);
    expect(OrderEventSchema.safeParse(diff.events[0]).success).toBe(true);
  });

  it('counts a line added from 0 and a line removed to 0, with the added line’s note', () => {
    const order = pending();
    const soup = makeOrderItem({ sku: 'SOUP-01', name: 'Vegetable soup', notes: 'No celery: allergy' });
    const later = laterOrder(order, { updated_at: LATER, items: [soup] });
    expect(changesOf(diffOrder(snapshotOf(order), later, diffContext()))).toEqual([
      { field: 'items', sku: 'SOUP-01', name: 'Vegetable soup', from: 0, to: 1 },
      { field: 'items', sku: 'LASAGNE', name: 'Lasagne', from: 1, to: 0 },
      { field: 'item_notes', sku: 'SOUP-01', name: 'Vegetable soup', from: null, to: 'No celery: allergy' },
    ]);
  });

  it('announces the order’s notes and a line’s notes changing, blank notes being no notes', () => {
    const order = laterOrder(pending(), { notes: '  ' });
    const line = lineOf(order);
    const later = laterOrder(order, {
      updated_at: LATER,
      notes: 'Allergic to eggs',
      items: [{ ...line, notes: 'Cut in small pieces' }],
    });
    expect(changesOf(diffOrder(snapshotOf(order), later, diffContext()))).toEqual([
      { field: 'notes', from: null, to: 'Allergic to eggs' },
      { field: 'item_notes', sku: 'LASAGNE', name: 'Lasagne', from: null, to: 'Cut in small pieces' },
    ]);
    const blanked = laterOrder(order, { updated_at: LATER, notes: null });
    expect(diffOrder(snapshotOf(order), blanked, diffContext())).toEqual({ events: [], snapshot: undefined });
  });

  it('gives a second sighting of the same content the same id, and a change back a new one', () => {
    const order = pending();
    const line = lineOf(order);
    const two = laterOrder(order, { updated_at: LATER, items: [{ ...line, quantity: 2 }] });
    const first = diffOrder(snapshotOf(order), two, diffContext()).events[0];
    const again = diffOrder(snapshotOf(order), two, diffContext({ detectedAt: '2026-03-05T13:00:00.000Z' }))
      .events[0];
    expect(again?.id).toBe(first?.id);
    const back = laterOrder(two, { updated_at: '2026-03-05T13:30:00.000000Z', items: [line] });
    const undone = diffOrder(snapshotOf(two), back, diffContext()).events[0];
    expect(undone?.type).toBe('order.updated');
    expect(undone?.id).not.toBe(first?.id);
  });

  it('marks a change after the prep summary was sent after_closing', () => {
    const order = pending();
    const later = laterOrder(order, { updated_at: LATER, notes: 'Vegan' });
    const diff = diffOrder(snapshotOf(order), later, diffContext({ summarySent: () => true }));
    expect(diff.events[0]?.data.after_closing).toBe(true);
  });

  it('learns the content of a snapshot written before content was remembered, silently', () => {
    const order = pending();
    const { content: _, ...older } = snapshotOf(order);
    const changed = laterOrder(order, { updated_at: LATER, notes: 'Allergic to eggs' });
    const diff = diffOrder(older, changed, diffContext());
    expect(diff.events).toEqual([]);
    expect(diff.snapshot).toMatchObject({ version: 2, content: contentOf(changed) });
  });

  it('lets a status change tell the story: no order.updated beside order.canceled', () => {
    const order = pending();
    const later = laterOrder(order, {
      status: statusOf('canceled'),
      canceled_at: CANCELED_AT,
      notes: 'Canceled: child is ill',
    });
    expect(types(diffOrder(snapshotOf(order), later, diffContext()))).toEqual(['order.canceled']);
  });
});
