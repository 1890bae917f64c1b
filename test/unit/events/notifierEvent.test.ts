import { describe, expect, it } from 'vitest';
import {
  ESTABLISHMENT_EVENT_TYPES,
  EVENT_TYPES,
  establishmentsOf,
  eventReference,
  isEstablishmentEvent,
  isOrderEvent,
  isPrepChanged,
  isPrepSummary,
  NotifierEventSchema,
} from '../../../shared/events/notifierEvent.js';
import { ORDER_EVENT_TYPES, OrderEventSchema } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';

const SIDE_COUNTER = { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Side Counter' };

describe('EVENT_TYPES', () => {
  it('lists every order event type, the prep summary, the prep changes and the catch-up, once each', () => {
    expect(EVENT_TYPES).toEqual([
      ...ORDER_EVENT_TYPES,
      'establishment.prep_summary',
      'establishment.prep_changed',
      'notifier.catch_up',
    ]);
    expect(ESTABLISHMENT_EVENT_TYPES).toEqual(['establishment.prep_summary', 'establishment.prep_changed']);
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
  });
});

describe('NotifierEventSchema', () => {
  it('reads an order event, a prep summary and a prep_changed, each by its type', () => {
    const order = makeOrderEvent({ type: 'order.rescheduled' });
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    const changed = makePrepChanged();
    expect(NotifierEventSchema.parse(order)).toEqual(order);
    expect(NotifierEventSchema.parse(summary)).toEqual(summary);
    expect(NotifierEventSchema.parse(changed)).toEqual(changed);
  });

  it('refuses a prep_changed shaped as a summary or an order, and one with no order behind it', () => {
    const changed = makePrepChanged();
    expect(NotifierEventSchema.safeParse({ ...changed, type: 'establishment.prep_summary' }).success).toBe(
      false,
    );
    expect(NotifierEventSchema.safeParse({ ...changed, type: 'order.updated' }).success).toBe(false);
    expect(NotifierEventSchema.safeParse({ ...changed, data: { ...changed.data, orders: [] } }).success).toBe(
      false,
    );
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

describe('the kind predicates and eventReference', () => {
  it('tell a summary by its type and name it by establishment and date', () => {
    const summary = makePrepSummary([]);
    const order = makeOrderEvent({ order: { reference: 'NS-1031' } });
    expect(isPrepSummary(summary)).toBe(true);
    expect(isPrepSummary(order)).toBe(false);
    expect(eventReference(summary)).toBe('Main Canteen 2026-11-24');
    expect(eventReference(order)).toBe('NS-1031');
  });

  it('tell an order event from both establishment kinds, and name a prep_changed as its summary is named', () => {
    const summary = makePrepSummary([]);
    const changed = makePrepChanged();
    const orders = ORDER_EVENT_TYPES.map((type) => makeOrderEvent({ type }));
    for (const order of orders) {
      expect([isOrderEvent(order), isEstablishmentEvent(order), isPrepChanged(order)]).toEqual([
        true,
        false,
        false,
      ]);
    }
    expect([isOrderEvent(summary), isEstablishmentEvent(summary), isPrepChanged(summary)]).toEqual([
      false,
      true,
      false,
    ]);
    expect([isOrderEvent(changed), isEstablishmentEvent(changed), isPrepSummary(changed)]).toEqual([
      false,
      true,
      false,
    ]);
    expect(isPrepChanged(changed)).toBe(true);
    expect(eventReference(changed)).toBe('Main Canteen 2026-11-26');
  });
});

describe('establishmentsOf', () => {
  it('is a summary’s or a prep_changed’s establishment, or the order’s', () => {
    expect(establishmentsOf(makePrepSummary([]))).toEqual(['e5a1b2c3-0000-4000-8000-000000000001']);
    expect(establishmentsOf(makePrepChanged())).toEqual(['e5a1b2c3-0000-4000-8000-000000000001']);
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

describe('eventForSubscriber on an establishment event', () => {
  it('gives a summary or a prep_changed as it is, which names no customer to redact', () => {
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    const changed = makePrepChanged();
    expect(eventForSubscriber(summary, false)).toBe(summary);
    expect(eventForSubscriber(summary, true)).toBe(summary);
    expect(eventForSubscriber(changed, false)).toBe(changed);
  });
});
