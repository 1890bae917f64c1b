import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import { ORDER_EVENT_TYPES, type OrderEvent, OrderEventSchema } from '../../../shared/events/orderEvent.js';
import { summarizeOrder } from '../../../shared/events/orderSummary.js';
import {
  DETECTED_AT,
  diffContext,
  laterOrder,
  ORGANIZATION,
  parsedOrder,
  SOURCE,
  snapshotOf,
  statusOf,
  TIME_ZONE,
} from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrderItem, money } from '../../support/orderFactory.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const COMPLETED_AT = '2026-03-05T12:30:00.000000Z';
const CANCELED_AT = '2026-03-05T08:00:00.000000Z';

/** One transition per event type, each as (previous snapshot, observed order). */
function transitions(): Array<{ expected: string; previous: Snapshot | undefined; order: Order }> {
  const pending = parsedOrder();
  const completed = parsedOrder({ status: statusOf('completed'), completed_at: COMPLETED_AT });
  return [
    { expected: 'order.created', previous: undefined, order: parsedOrder() },
    {
      expected: 'order.completed',
      previous: snapshotOf(pending),
      order: laterOrder(pending, { status: statusOf('completed'), completed_at: COMPLETED_AT }),
    },
    {
      expected: 'order.canceled',
      previous: snapshotOf(pending),
      order: laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT }),
    },
    {
      expected: 'order.archived',
      previous: snapshotOf(completed),
      order: laterOrder(completed, { status: statusOf('archived') }),
    },
    {
      expected: 'order.status_changed',
      previous: snapshotOf(completed),
      order: laterOrder(completed, { status: statusOf('pending'), completed_at: null }),
    },
    {
      expected: 'order.rescheduled',
      previous: snapshotOf(pending),
      order: laterOrder(pending, { pickup_at: '2026-03-09' }),
    },
    {
      expected: 'order.updated',
      previous: snapshotOf(pending),
      order: laterOrder(pending, { notes: 'Allergic to eggs', updated_at: COMPLETED_AT }),
    },
  ];
}

function allEvents(): OrderEvent[] {
  return transitions().flatMap(({ previous, order }) => diffOrder(previous, order, diffContext()).events);
}

describe('the event envelope (CloudEvents 1.0)', () => {
  it('covers every event type with the transitions under test', () => {
    expect(new Set(allEvents().map((event) => event.type))).toEqual(new Set(ORDER_EVENT_TYPES));
  });

  it.each(transitions())('builds a valid $expected envelope', ({ expected, previous, order }) => {
    const events = diffOrder(previous, order, diffContext()).events;
    expect(events.map((event) => event.type)).toEqual([expected]);
    const [event] = events;
    expect(OrderEventSchema.safeParse(event).success).toBe(true);
    // A parse that strips nothing: the event carries no field outside the contract.
    expect(OrderEventSchema.parse(event)).toEqual(event);
  });

  it('fills the CloudEvents attributes from the context and the order', () => {
    for (const event of allEvents()) {
      expect(event.specversion).toBe('1.0');
      expect(event.id).toMatch(UUID_V8);
      expect(event.source).toBe(SOURCE);
      expect(event.subject).toBe(event.data.order.uuid);
      expect(event.time).toBe(DETECTED_AT);
      expect(event.time).toMatch(RFC3339);
      expect(event.datacontenttype).toBe('application/json');
      expect(event.data.organization).toEqual({ ...ORGANIZATION, time_zone: TIME_ZONE });
    }
  });

  it('gives each event of one cycle its own id', () => {
    const ids = allEvents().map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts only the organization id, name and time zone in data, whatever else the caller passes', () => {
    const organization = { ...ORGANIZATION, timeZone: 'Europe/Madrid', token: { env: 'NORTH_TOKEN' } };
    const [event] = diffOrder(undefined, parsedOrder(), diffContext({ organization })).events;
    expect(event?.data.organization).toEqual({ ...ORGANIZATION, time_zone: 'Europe/Madrid' });
    expect(JSON.stringify(event)).not.toContain('NORTH_TOKEN');
  });

  it('carries the order summary with a normalized pickup date', () => {
    const order = parsedOrder({
      reference: 'ORD-77',
      pickup_at: '06/03/26',
      customer: {
        uuid: '00000000-0000-4000-9000-000000000077',
        full_name: 'Maria Costa',
        class: '4A',
        parent: null,
      },
      payment_method_type: { label: 'Cash', value: 'cash' },
      total: money(700),
      items: [makeOrderItem({ name: 'Fish', quantity: 2 })],
    });
    const [event] = diffOrder(undefined, order, diffContext()).events;
    expect(event?.subject).toBe(order.uuid);
    expect(event?.data.order).toMatchObject({
      uuid: order.uuid,
      reference: 'ORD-77',
      status: 'pending',
      pickup_date: '2026-03-06',
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      customer: {
        uuid: '00000000-0000-4000-9000-000000000077',
        name: 'Maria Costa',
        class: '4A',
        parent: null,
      },
      total: { amount: '700', currency: 'EUR', formatted: '€7.00' },
      payment_method: 'cash',
      items: [{ sku: 'SOUP-01', name: 'Fish', quantity: 2 }],
    });
    expect(event?.data.order).toEqual(summarizeOrder(order));
  });

  it('lists the changes as field/from/to, from the snapshot to the observed order', () => {
    const pending = parsedOrder();
    const canceled = laterOrder(pending, { status: statusOf('canceled'), canceled_at: CANCELED_AT });
    const [event] = diffOrder(snapshotOf(pending), canceled, diffContext()).events;
    expect(event?.data.changes).toEqual([
      { field: 'status', from: 'pending', to: 'canceled' },
      { field: 'canceled_at', from: null, to: CANCELED_AT },
    ]);
    expect(event?.data.order.status).toBe('canceled');
  });

  it('describes a created order with changes from null', () => {
    const order = parsedOrder();
    const [event] = diffOrder(undefined, order, diffContext()).events;
    expect(event?.data.changes).toEqual([
      { field: 'status', from: null, to: 'pending' },
      { field: 'pickup_date', from: null, to: '2026-03-05' },
      { field: 'establishment', from: null, to: ESTABLISHMENT_UUID },
    ]);
  });
});

describe('OrderEventSchema', () => {
  const valid = (): Record<string, unknown> => {
    const [event] = diffOrder(undefined, parsedOrder(), diffContext()).events;
    return structuredClone(event) as unknown as Record<string, unknown>;
  };

  it('rejects another CloudEvents spec version', () => {
    expect(OrderEventSchema.safeParse({ ...valid(), specversion: '0.3' }).success).toBe(false);
  });

  it('rejects an event type outside the contract', () => {
    expect(OrderEventSchema.safeParse({ ...valid(), type: 'order.refunded' }).success).toBe(false);
  });

  it('rejects another content type', () => {
    expect(OrderEventSchema.safeParse({ ...valid(), datacontenttype: 'text/plain' }).success).toBe(false);
  });

  it('rejects an envelope without subject', () => {
    const { subject: _subject, ...rest } = valid();
    expect(OrderEventSchema.safeParse(rest).success).toBe(false);
  });

  it('rejects a change on a field the diff engine does not track', () => {
    const event = valid() as { data: { changes: unknown[] } };
    event.data.changes = [{ field: 'payment_method', from: 'card', to: 'cash' }];
    expect(OrderEventSchema.safeParse(event).success).toBe(false);
  });

  it('rejects an items change without its sku, or with a quantity that is not a count', () => {
    const event = valid() as { data: { changes: unknown[] } };
    event.data.changes = [{ field: 'items', name: 'Lasagne', from: 1, to: 2 }];
    expect(OrderEventSchema.safeParse(event).success).toBe(false);
    event.data.changes = [{ field: 'items', sku: 'L', name: 'Lasagne', from: '1', to: 2 }];
    expect(OrderEventSchema.safeParse(event).success).toBe(false);
  });
});
