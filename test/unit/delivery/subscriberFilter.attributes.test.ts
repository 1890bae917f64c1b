import { describe, expect, it } from 'vitest';
import {
  eventMessageAttributes,
  MESSAGE_ATTRIBUTE_NAMES,
} from '../../../shared/delivery/messageAttributes.js';
import { CANTEEN_1, NORTH, orderEvent } from './subscriberFilterFixtures.js';

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
    expect(Object.keys(eventMessageAttributes(event))).toEqual([...MESSAGE_ATTRIBUTE_NAMES]);
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
});
