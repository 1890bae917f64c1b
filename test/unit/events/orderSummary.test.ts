import { describe, expect, it } from 'vitest';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import { type OrderEvent, OrderEventSchema, OrderSummarySchema } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber, summarizeOrder } from '../../../shared/events/orderSummary.js';
import { diffContext, parsedOrder, statusOf } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrderItem, money } from '../../support/orderFactory.js';

/** An `order.created` event for a fresh order, as the diff engine builds it. */
function createdEvent(): OrderEvent {
  const [event] = diffOrder(undefined, parsedOrder(), diffContext()).events;
  if (!event) throw new Error('expected an order.created event');
  return event;
}

describe('summarizeOrder', () => {
  it('keeps the compact fields of the order and nothing else', () => {
    const order = parsedOrder({
      reference: 'ORD-42',
      pickup_at: '09/11/26',
      status: statusOf('pending'),
      payment_method_type: { label: 'Credit', value: 'credit' },
      total: money(1250),
      items: [
        makeOrderItem({ name: 'Vegetable soup', quantity: 2 }),
        makeOrderItem({ sku: 'FRUIT-APL', name: 'Apple', quantity: 1 }),
      ],
    });
    expect(summarizeOrder(order)).toEqual({
      uuid: order.uuid,
      reference: 'ORD-42',
      status: 'pending',
      pickup_date: '2026-11-09',
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      customer: {
        name: 'Ana Silva',
        class: '3B',
        parent: { name: 'Rui Silva', email: 'parent@example.test', phone: '+351 000 000 000' },
      },
      total: { amount: '1250', currency: 'EUR', formatted: '€12.50' },
      payment_method: 'credit',
      items: [
        { sku: 'SOUP-01', name: 'Vegetable soup', quantity: 2 },
        { sku: 'FRUIT-APL', name: 'Apple', quantity: 1 },
      ],
    });
  });

  it('leaves out item prices, parent credit and customer uuid', () => {
    const summary = summarizeOrder(parsedOrder());
    expect(summary.items[0]).not.toHaveProperty('price');
    expect(summary.customer.parent).not.toHaveProperty('credit');
    expect(summary.customer).not.toHaveProperty('uuid');
  });

  it('validates against OrderSummarySchema', () => {
    expect(OrderSummarySchema.safeParse(summarizeOrder(parsedOrder())).success).toBe(true);
  });

  it('keeps a customer without parent and without class as null', () => {
    const order = parsedOrder();
    order.customer.parent = null;
    order.customer.class = null;
    const summary = summarizeOrder(order);
    expect(summary.customer).toEqual({ name: 'Ana Silva', class: null, parent: null });
  });

  it('keeps null parent e-mail and phone as null', () => {
    const order = parsedOrder();
    if (!order.customer.parent) throw new Error('factory order has a parent');
    order.customer.parent.email = null;
    order.customer.parent.phone = null;
    expect(summarizeOrder(order).customer.parent).toEqual({ name: 'Rui Silva', email: null, phone: null });
  });
});

describe('eventForSubscriber', () => {
  it('removes parent e-mail and phone but keeps the parent name for a subscriber that did not opt in', () => {
    const redacted = eventForSubscriber(createdEvent(), false);
    expect(redacted.data.order.customer.parent).toEqual({ name: 'Rui Silva' });
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
    expect(kept.data.order.customer.parent).toEqual({
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
