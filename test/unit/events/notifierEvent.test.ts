import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  establishmentsOf,
  eventReference,
  isPrepSummary,
  NotifierEventSchema,
} from '../../../shared/events/notifierEvent.js';
import { ORDER_EVENT_TYPES, OrderEventSchema } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';

const SIDE_COUNTER = { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Side Counter' };

describe('EVENT_TYPES', () => {
  it('lists every order event type, the prep summary and the catch-up, once each', () => {
    expect(EVENT_TYPES).toEqual([...ORDER_EVENT_TYPES, 'establishment.prep_summary', 'notifier.catch_up']);
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
  });
});

describe('NotifierEventSchema', () => {
  it('reads an order event and a prep summary, each by its type', () => {
    const order = makeOrderEvent({ type: 'order.rescheduled' });
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    expect(NotifierEventSchema.parse(order)).toEqual(order);
    expect(NotifierEventSchema.parse(summary)).toEqual(summary);
  });

  it('refuses a prep summary shaped as an order event and the other way round', () => {
    const order = makeOrderEvent();
    const summary = makePrepSummary([]);
    expect(NotifierEventSchema.safeParse({ ...order, type: 'establishment.prep_summary' }).success).toBe(
      false,
    );
    expect(NotifierEventSchema.safeParse({ ...summary, type: 'order.created' }).success).toBe(false);
  });

  it('still reads an order event logged before items had a sku or events an after_closing flag', () => {
    const event = makeOrderEvent();
    const old = {
      ...event,
      data: { ...event.data, order: { ...event.data.order, items: [{ name: 'Soup', quantity: 1 }] } },
    };
    expect(NotifierEventSchema.parse(old)).toEqual(old);
  });

  it('takes after_closing only as true: an event in time carries no flag at all', () => {
    const event = makeOrderEvent();
    const flagged = (value: unknown) => ({ ...event, data: { ...event.data, after_closing: value } });
    expect(OrderEventSchema.safeParse(flagged(true)).success).toBe(true);
    expect(OrderEventSchema.safeParse(flagged(false)).success).toBe(false);
  });
});

describe('isPrepSummary and eventReference', () => {
  it('tell a summary by its type and name it by establishment and date', () => {
    const summary = makePrepSummary([]);
    const order = makeOrderEvent({ order: { reference: 'NS-1031' } });
    expect(isPrepSummary(summary)).toBe(true);
    expect(isPrepSummary(order)).toBe(false);
    expect(eventReference(summary)).toBe('Main Canteen 2026-11-24');
    expect(eventReference(order)).toBe('NS-1031');
  });
});

describe('establishmentsOf', () => {
  it('is a summary’s establishment, or the order’s', () => {
    expect(establishmentsOf(makePrepSummary([]))).toEqual(['e5a1b2c3-0000-4000-8000-000000000001']);
    expect(establishmentsOf(makeOrderEvent())).toEqual(['e5a1b2c3-0000-4000-8000-000000000001']);
  });

  it('adds the establishment an order moved away from, so its kitchen hears of it', () => {
    const moved = makeOrderEvent({ type: 'order.rescheduled', before: { establishment: SIDE_COUNTER } });
    expect(establishmentsOf(moved)).toEqual(['e5a1b2c3-0000-4000-8000-000000000001', SIDE_COUNTER.uuid]);
  });

  it('does not count a first sighting as a move', () => {
    expect(establishmentsOf(makeOrderEvent({ type: 'order.created' }))).toHaveLength(1);
  });
});

describe('eventForSubscriber on a prep summary', () => {
  it('gives the summary as it is, which names no customer to redact', () => {
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    expect(eventForSubscriber(summary, false)).toBe(summary);
    expect(eventForSubscriber(summary, true)).toBe(summary);
  });
});
