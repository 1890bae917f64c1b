// The SNS message attributes the publisher attaches to every event: under the MessageAttributes scope,
// subscription filter policies see these and nothing of the body.
import type { MessageAttributeValue } from '@aws-sdk/client-sns';
import type { OrderEvent } from '../events/orderEvent.js';

export const MESSAGE_ATTRIBUTE_NAMES = [
  'type',
  'organization',
  'establishment',
  'status',
  'payment_method',
] as const;
export type MessageAttributeName = (typeof MESSAGE_ATTRIBUTE_NAMES)[number];

/** The attribute values of an event as plain strings; an attribute SNS could not carry is left out. */
function eventAttributeValues(event: OrderEvent): Partial<Record<MessageAttributeName, string>> {
  const order = event.data.order;
  const values: Record<MessageAttributeName, string> = {
    type: event.type,
    // Lower-cased like the config's uuids: SNS compares strings case-sensitively.
    organization: event.data.organization.id.toLowerCase(),
    establishment: order.establishment.uuid.toLowerCase(),
    status: order.status,
    payment_method: order.payment_method,
  };
  // SNS rejects the whole publish for an empty String attribute. Leaving it out loses nothing: no filter
  // value is empty, so a policy naming that key would not have matched anyway.
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

/** The `MessageAttributes` of the event's SNS publish, every one a `String`. */
export function eventMessageAttributes(event: OrderEvent): Record<string, MessageAttributeValue> {
  return Object.fromEntries(
    Object.entries(eventAttributeValues(event)).map(([name, value]) => [
      name,
      { DataType: 'String', StringValue: value },
    ]),
  );
}
