import { describe, expect, it } from 'vitest';
import { type OrderInput, OrderSchema } from '../../../shared/api/schemas.js';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import { type OrderEvent, OrderEventSchema, OrderSummarySchema } from '../../../shared/events/orderEvent.js';
import {
  eventForSubscriber,
  fittedToCarrier,
  MAX_EVENT_BYTES,
  summarizeOrder,
} from '../../../shared/events/orderSummary.js';
import { diffContext, parsedOrder, statusOf } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrder, makeOrderItem, money } from '../../support/orderFactory.js';

/** An `order.created` event for a fresh order, as the diff engine builds it. */
function createdEvent(): OrderEvent {
  const [event] = diffOrder(undefined, parsedOrder(), diffContext()).events;
  if (!event) throw new Error('expected an order.created event');
  return event;
}

describe('summarizeOrder', () => {
  it('carries every field of the spec’s Order, normalized, under the names of 0.1.0 where it had them', () => {
    const soup = makeOrderItem({
      name: 'Vegetable soup',
      quantity: 2,
      total: money(700),
      notes: 'No celery',
    });
    const order = parsedOrder({
      reference: 'ORD-42',
      pickup_at: '09/11/26',
      status: statusOf('pending'),
      payment_method_type: { label: 'Credit', value: 'credit' },
      subtotal: money(1150),
      total: money(1250),
      notes: 'Allergic to nuts',
      items: [soup],
    });
    expect(summarizeOrder(order)).toEqual({
      uuid: order.uuid,
      reference: 'ORD-42',
      status: 'pending',
      pickup_date: '2026-11-09',
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      customer: {
        uuid: order.customer.uuid,
        name: 'Ana Silva',
        class: '3B',
        parent: {
          uuid: order.customer.parent?.uuid,
          name: 'Rui Silva',
          email: 'parent@example.test',
          phone: '+351 000 000 000',
        },
      },
      currency: 'EUR',
      subtotal: { amount: '1150', currency: 'EUR', formatted: '€11.50' },
      total: { amount: '1250', currency: 'EUR', formatted: '€12.50' },
      payment_method: 'credit',
      notes: 'Allergic to nuts',
      created_at: order.created_at,
      updated_at: order.updated_at,
      canceled_at: null,
      completed_at: null,
      can_be_cancelled: true,
      items: [
        {
          uuid: soup.uuid,
          sku: 'SOUP-01',
          name: 'Vegetable soup',
          description: 'Soup of the day',
          price: { amount: '350', currency: 'EUR', formatted: '€3.50' },
          quantity: 2,
          total: { amount: '700', currency: 'EUR', formatted: '€7.00' },
          image: '',
          notes: 'No celery',
          fulfilled_quantity: 0,
          fulfillment_status: 'unfulfilled',
          is_menu: false,
          status: 'pending',
          created_at: soup.created_at,
        },
      ],
    });
  });

  it('keeps fields the API adds that the spec does not name, on the order, the customer and each line', () => {
    const input = makeOrder() as OrderInput & Record<string, unknown>;
    const order = OrderSchema.parse({
      ...input,
      loyalty_points: 12,
      customer: { ...input.customer, school_year: 3 },
      items: input.items.map((item) => ({ ...item, allergens: ['gluten'] })),
    });
    const summary = summarizeOrder(order);
    expect(summary).toHaveProperty('loyalty_points', 12);
    expect(summary.customer).toHaveProperty('school_year', 3);
    expect(summary.items[0]).toHaveProperty('allergens', ['gluten']);
    // Renamed fields do not come along under their API names as well.
    expect(summary).not.toHaveProperty('pickup_at');
    expect(summary).not.toHaveProperty('payment_method_type');
    expect(summary.customer).not.toHaveProperty('full_name');
    expect(OrderSummarySchema.parse(summary)).toEqual(summary);
  });

  it('leaves out the parent’s credit balance: money of a person, not of the order', () => {
    expect(summarizeOrder(parsedOrder()).customer.parent).not.toHaveProperty('credit');
  });

  it('validates against OrderSummarySchema', () => {
    expect(OrderSummarySchema.safeParse(summarizeOrder(parsedOrder())).success).toBe(true);
  });

  it('keeps a customer without parent and without class as null', () => {
    const order = parsedOrder();
    order.customer.parent = null;
    order.customer.class = null;
    const summary = summarizeOrder(order);
    expect(summary.customer).toEqual({
      uuid: order.customer.uuid,
      name: 'Ana Silva',
      class: null,
      parent: null,
    });
  });

  it('keeps null parent e-mail and phone as null', () => {
    const order = parsedOrder();
    if (!order.customer.parent) throw new Error('factory order has a parent');
    order.customer.parent.email = null;
    order.customer.parent.phone = null;
    expect(summarizeOrder(order).customer.parent).toMatchObject({
      name: 'Rui Silva',
      email: null,
      phone: null,
    });
  });
});

describe('fittedToCarrier', () => {
  const orderOf = (lines: number) =>
    parsedOrder({
      items: Array.from({ length: lines }, (_, index) =>
        makeOrderItem({ sku: `SKU-${index}`, name: `Dish ${index}`, description: 'x'.repeat(400) }),
      ),
    });
  const eventOf = (order: ReturnType<typeof parsedOrder>) =>
    diffOrder(undefined, order, diffContext()).events[0] as OrderEvent;

  it('leaves an event that fits as it is', () => {
    const event = eventOf(orderOf(3));
    expect(event.data.order.items).toHaveLength(3);
    expect(event.data.order).not.toHaveProperty('items_omitted');
  });

  it('keeps the first item lines of an order too big to carry, and counts the rest in items_omitted', () => {
    const order = orderOf(400);
    const event = eventOf(order);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    const kept = event.data.order.items.length;
    expect(kept).toBeGreaterThan(10);
    expect(event.data.order.items_omitted).toBe(400 - kept);
    expect(event.data.order.items.map((item) => item.sku).slice(0, 2)).toEqual(['SKU-0', 'SKU-1']);
    expect(OrderEventSchema.safeParse(event).success).toBe(true);
    // As many as fit: one more line would not.
    const lines = summarizeOrder(order).items;
    const oneMore = {
      ...event,
      data: {
        ...event.data,
        order: { ...event.data.order, items: lines.slice(0, kept + 1), items_omitted: 400 - kept - 1 },
      },
    };
    expect(Buffer.byteLength(JSON.stringify(oneMore))).toBeGreaterThan(MAX_EVENT_BYTES);
    expect(fittedToCarrier(oneMore).data.order).toMatchObject({
      items: lines.slice(0, kept),
      items_omitted: 400 - kept,
    });
  });
});

describe('eventForSubscriber', () => {
  it('removes parent e-mail and phone but keeps the parent name for a subscriber that did not opt in', () => {
    const event = createdEvent();
    const redacted = eventForSubscriber(event, false);
    expect(redacted.data.order.customer.parent).toEqual({
      uuid: event.data.order.customer.parent?.uuid,
      name: 'Rui Silva',
    });
    expect(redacted.data.order.customer.parent).not.toHaveProperty('email');
    expect(redacted.data.order.customer.parent).not.toHaveProperty('phone');
    expect(JSON.stringify(redacted)).not.toContain('parent@example.test');
    expect(JSON.stringify(redacted)).not.toContain('+351');
  });

  it('keeps everything else of the event when redacting', () => {
    const event = createdEvent();
    const redacted = eventForSubscriber(event, false);
    const { parent: _parent, ...customer } = event.data.order.customer;
    expect(redacted).toMatchObject({
      ...event,
      data: { ...event.data, order: { ...event.data.order, customer } },
    });
    expect(OrderEventSchema.safeParse(redacted).success).toBe(true);
  });

  it('does not mutate the event it redacts', () => {
    const event = createdEvent();
    const before = structuredClone(event);
    eventForSubscriber(event, false);
    expect(event).toEqual(before);
    expect(event.data.order.customer.parent?.email).toBe('parent@example.test');
  });

  it('keeps the contact details for a subscriber that opted in', () => {
    const event = createdEvent();
    const kept = eventForSubscriber(event, true);
    expect(kept).toEqual(event);
    expect(kept.data.order.customer.parent).toMatchObject({
      name: 'Rui Silva',
      email: 'parent@example.test',
      phone: '+351 000 000 000',
    });
  });

  it('leaves a customer without parent untouched', () => {
    const order = parsedOrder();
    order.customer.parent = null;
    const [event] = diffOrder(undefined, order, diffContext()).events;
    if (!event) throw new Error('expected an order.created event');
    const redacted = eventForSubscriber(event, false);
    expect(redacted).toEqual(event);
    expect(redacted.data.order.customer.parent).toBeNull();
  });
});
