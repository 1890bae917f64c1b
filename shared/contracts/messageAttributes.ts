// The SNS message attributes the publisher attaches to every event: under the MessageAttributes scope,
// subscription filter policies see these and nothing of the body. A digest (AWS) carries its own few:
// `type` digest.email, its organization, and `digest`, the one subscriber it is addressed to.
import type { MessageAttributeValue } from '@aws-sdk/client-sns';
import type { DigestEvent } from '../events/digestEvent.js';
import { establishmentsOf, isOrderEvent, type NotifierEvent } from '../events/notifierEvent.js';

export const MESSAGE_ATTRIBUTE_NAMES = [
  'type',
  'organization',
  'establishment',
  'status',
  'payment_method',
  'digest',
] as const;
export type MessageAttributeName = (typeof MESSAGE_ATTRIBUTE_NAMES)[number];

/**
 * The `status` and `payment_method` of an event that is not about one order (a prep summary, a
 * prep_changed). Filters on
 * those keys do not hold such an event back, and an SNS policy cannot say "or absent" next to values, so
 * compileFilterPolicy adds this value to them instead. No order status or payment method looks like it.
 */
export const NOT_AN_ORDER = 'n/a';

/** The attribute values of an event; an attribute SNS could not carry is left out. */
function eventAttributeValues(
  event: NotifierEvent,
): Partial<Record<MessageAttributeName, string | string[]>> {
  // Lower-cased like the config's uuids: SNS compares strings case-sensitively.
  const establishments = [...new Set(establishmentsOf(event).map((uuid) => uuid.toLowerCase()))];
  const order = isOrderEvent(event) ? event.data.order : undefined;
  const values: Record<Exclude<MessageAttributeName, 'digest'>, string | string[]> = {
    type: event.type,
    organization: event.data.organization.id.toLowerCase(),
    // Two for an order that moved: a policy naming either kitchen lets it through.
    establishment: establishments.length === 1 ? (establishments[0] ?? '') : establishments,
    // An order's own value equal to the marker is left out below, so it can never pass as a summary.
    status: order === undefined ? NOT_AN_ORDER : orderValue(order.status),
    payment_method: order === undefined ? NOT_AN_ORDER : orderValue(order.payment_method),
  };
  // SNS rejects the whole publish for an empty String attribute. Leaving it out loses nothing: no filter
  // value is empty, so a policy naming that key would not have matched anyway.
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

function orderValue(value: string): string {
  return value === NOT_AN_ORDER ? '' : value;
}

/** The `MessageAttributes` of the event's SNS publish: `String`, or `String.Array` for a list. */
export function eventMessageAttributes(event: NotifierEvent): Record<string, MessageAttributeValue> {
  return Object.fromEntries(
    Object.entries(eventAttributeValues(event)).map(([name, value]) => [
      name,
      Array.isArray(value)
        ? { DataType: 'String.Array', StringValue: JSON.stringify(value) }
        : { DataType: 'String', StringValue: value },
    ]),
  );
}

/**
 * The `MessageAttributes` of a digest's SNS publish. Only the digest subscriptions name `digest` in their
 * policy, and every other policy refuses its `type` (compileFilterPolicy), so it reaches its subscriber only.
 */
export function digestMessageAttributes(digest: DigestEvent): Record<string, MessageAttributeValue> {
  return {
    type: { DataType: 'String', StringValue: digest.type },
    organization: { DataType: 'String', StringValue: digest.data.organization.id.toLowerCase() },
    digest: { DataType: 'String', StringValue: digest.data.subscriber_id },
  };
}
