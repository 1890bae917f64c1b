import { describe, expect, it } from 'vitest';
import {
  eventMessageAttributes,
  MESSAGE_ATTRIBUTE_NAMES,
  NOT_AN_ORDER,
} from '../../../shared/contracts/messageAttributes.js';
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
  it('attaches the five filterable attributes as Strings', () => {
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
    expect(Object.keys(attributes)).toEqual(['type', 'organization', 'establishment', 'status']);
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
    });
  });

  it('leaves out an order’s status or payment method that reads like the marker', () => {
    const event = orderEvent({
      type: 'order.status_changed',
      status: NOT_AN_ORDER,
      paymentMethod: NOT_AN_ORDER,
      establishment: CANTEEN_1,
    });
    expect(Object.keys(eventMessageAttributes(event))).toEqual(['type', 'organization', 'establishment']);
  });
});
