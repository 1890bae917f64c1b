import { describe, expect, it } from 'vitest';
import {
  eventAudiences,
  eventMessageAttributes,
  MESSAGE_ATTRIBUTE_NAMES,
  NOT_AN_ORDER,
} from '../../../shared/contracts/messageAttributes.js';
import { buildCatchUp } from '../../../shared/events/buildCatchUp.js';
import {
  CANTEEN_1,
  CANTEEN_2,
  NORTH,
  orderEvent,
  prepChangedEvent,
  prepSummaryEvent,
  SOUTH,
} from './subscriberFilterFixtures.js';

describe('eventMessageAttributes', () => {
  it('attaches the six filterable attributes as Strings', () => {
    const event = orderEvent({
      type: 'order.canceled',
      status: 'canceled',
      paymentMethod: 'card',
      establishment: CANTEEN_1,
    });
    expect(eventMessageAttributes(event)).toEqual({
      type: { DataType: 'String', StringValue: 'order.canceled' },
      organization: { DataType: 'String', StringValue: NORTH },
      establishment: { DataType: 'String', StringValue: CANTEEN_1 },
      status: { DataType: 'String', StringValue: 'canceled' },
      payment_method: { DataType: 'String', StringValue: 'card' },
      audience: { DataType: 'String', StringValue: 'every-event' },
    });
    // Every attribute but `digest`, which only a digest carries.
    expect(Object.keys(eventMessageAttributes(event))).toEqual(
      MESSAGE_ATTRIBUTE_NAMES.filter((name) => name !== 'digest'),
    );
  });

  it('lower-cases the organization and establishment uuids', () => {
    const event = orderEvent({
      type: 'order.created',
      status: 'pending',
      paymentMethod: 'cash',
      establishment: CANTEEN_1.toUpperCase(),
      organization: NORTH.toUpperCase(),
    });
    const attributes = eventMessageAttributes(event);
    expect(attributes.organization?.StringValue).toBe(NORTH);
    expect(attributes.establishment?.StringValue).toBe(CANTEEN_1);
  });

  it('passes a status or payment method it does not know through unchanged', () => {
    const event = orderEvent({
      type: 'order.status_changed',
      status: 'refunded',
      paymentMethod: 'voucher',
      establishment: CANTEEN_1,
    });
    const attributes = eventMessageAttributes(event);
    expect(attributes.status).toEqual({ DataType: 'String', StringValue: 'refunded' });
    expect(attributes.payment_method).toEqual({ DataType: 'String', StringValue: 'voucher' });
  });

  it('leaves out an empty value, which SNS would refuse the whole publish for', () => {
    const event = orderEvent({
      type: 'order.created',
      status: 'pending',
      paymentMethod: '',
      establishment: CANTEEN_1,
    });
    const attributes = eventMessageAttributes(event);
    expect(attributes).not.toHaveProperty('payment_method');
    expect(Object.keys(attributes)).toEqual(['type', 'organization', 'establishment', 'status', 'audience']);
  });

  it('names both establishments of an order that moved, as a String.Array, lower-cased', () => {
    const event = orderEvent({
      type: 'order.rescheduled',
      status: 'pending',
      paymentMethod: 'cash',
      establishment: CANTEEN_2.toUpperCase(),
      movedFrom: CANTEEN_1.toUpperCase(),
    });
    expect(eventMessageAttributes(event).establishment).toEqual({
      DataType: 'String.Array',
      StringValue: JSON.stringify([CANTEEN_2, CANTEEN_1]),
    });
  });

  it('gives a prep summary its establishment, and the marker for what only orders have', () => {
    const event = prepSummaryEvent({ establishment: CANTEEN_1.toUpperCase(), organization: SOUTH });
    expect(eventMessageAttributes(event)).toEqual({
      type: { DataType: 'String', StringValue: 'establishment.prep_summary' },
      organization: { DataType: 'String', StringValue: SOUTH },
      establishment: { DataType: 'String', StringValue: CANTEEN_1 },
      status: { DataType: 'String', StringValue: NOT_AN_ORDER },
      payment_method: { DataType: 'String', StringValue: NOT_AN_ORDER },
      audience: { DataType: 'String', StringValue: 'every-event' },
    });
  });

  it('gives a prep_changed its establishment, and the marker, as a summary has them', () => {
    const event = prepChangedEvent({ establishment: CANTEEN_2.toUpperCase() });
    expect(eventMessageAttributes(event)).toEqual({
      type: { DataType: 'String', StringValue: 'establishment.prep_changed' },
      organization: { DataType: 'String', StringValue: NORTH },
      establishment: { DataType: 'String', StringValue: CANTEEN_2 },
      status: { DataType: 'String', StringValue: NOT_AN_ORDER },
      payment_method: { DataType: 'String', StringValue: NOT_AN_ORDER },
      audience: { DataType: 'String', StringValue: 'every-event' },
    });
  });

  it('leaves out an order’s status or payment method that reads like the marker', () => {
    const event = orderEvent({
      type: 'order.status_changed',
      status: NOT_AN_ORDER,
      paymentMethod: NOT_AN_ORDER,
      establishment: CANTEEN_1,
    });
    expect(Object.keys(eventMessageAttributes(event))).toEqual([
      'type',
      'organization',
      'establishment',
      'audience',
    ]);
  });
});

describe('the audience attribute', () => {
  const event = orderEvent({
    type: 'order.created',
    status: 'pending',
    paymentMethod: 'card',
    establishment: CANTEEN_1,
  });
  const detectedAt = Date.parse(event.time);
  const audience = (sourceTime: number | undefined) =>
    eventMessageAttributes(event, { sourceTime, catchUpAfterSeconds: [900, 3600] }).audience;

  it('names every threshold an event was timely for when found, and every-event always', () => {
    expect(audience(detectedAt - 60_000)).toEqual({
      DataType: 'String.Array',
      StringValue: JSON.stringify(['every-event', 'catch-up-after-900s', 'catch-up-after-3600s']),
    });
    // Found 20 minutes after it happened: stale for 15 minutes, not for an hour.
    expect(audience(detectedAt - 20 * 60_000)?.StringValue).toBe(
      JSON.stringify(['every-event', 'catch-up-after-3600s']),
    );
    // Exactly the threshold is not more than it.
    expect(audience(detectedAt - 900_000)?.StringValue).toContain('catch-up-after-900s');
    expect(audience(detectedAt - 2 * 3_600_000)).toEqual({ DataType: 'String', StringValue: 'every-event' });
  });

  it('counts an event the API did not date, and a prep summary, as timely for every threshold', () => {
    expect(audience(undefined)?.StringValue).toBe(
      JSON.stringify(['every-event', 'catch-up-after-900s', 'catch-up-after-3600s']),
    );
    const summary = prepSummaryEvent({ establishment: CANTEEN_1 });
    expect(eventAudiences(summary, { sourceTime: 0, catchUpAfterSeconds: [900] })).toEqual([
      'every-event',
      'catch-up-after-900s',
    ]);
  });

  it("gives a catch-up its own threshold alone, and its events' types, establishments, statuses and payment methods", () => {
    const second = orderEvent({
      type: 'order.canceled',
      status: 'canceled',
      paymentMethod: 'cash',
      establishment: CANTEEN_2,
      movedFrom: CANTEEN_1,
    });
    const catchUp = buildCatchUp({
      organization: { id: NORTH, name: 'North School' },
      source: event.source,
      catchUpAfterMs: 900_000,
      nowMs: detectedAt,
      events: [{ event }, { event: { ...second, id: 'other' } }],
    });
    expect(eventMessageAttributes(catchUp, { catchUpAfterSeconds: [900, 3600] })).toEqual({
      type: { DataType: 'String.Array', StringValue: JSON.stringify(['order.canceled', 'order.created']) },
      organization: { DataType: 'String', StringValue: NORTH },
      establishment: { DataType: 'String.Array', StringValue: JSON.stringify([CANTEEN_1, CANTEEN_2]) },
      status: { DataType: 'String.Array', StringValue: JSON.stringify(['canceled', 'pending']) },
      payment_method: { DataType: 'String.Array', StringValue: JSON.stringify(['card', 'cash']) },
      audience: { DataType: 'String', StringValue: 'catch-up-after-900s' },
    });
  });
});
