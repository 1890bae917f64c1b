// The SNS message attributes the publisher attaches to every event: under the MessageAttributes scope,
// subscription filter policies see these and nothing of the body. A digest (AWS) carries its own few:
// `type` digest.email, its organization, and `digest`, the one subscriber it is addressed to.
//
// `audience` tells the events that machines and people get apart from the catch-ups that stand for stale
// ones (docs/delivery.md, "Calm after an outage"): every event names `every-event`, and `catch-up-after-<s>s` for
// each catch-up threshold (in seconds) it was not stale for when detected; a catch-up names its own
// threshold alone. A webhook's policy asks for `every-event`, a person's for its own threshold.
//
// A re-sent e-mail (`replay --stack --dead-letters` of an e-mail subscriber) carries `type` email.resend,
// which no event policy lets through, and `audience` naming the one subscription it is for
// (resendAudience); each e-mail subscription's policy has a branch for its own (snsFilterPolicy.ts).
import type { MessageAttributeValue } from '@aws-sdk/client-sns';
import { isCatchUp } from '../events/catchUpEvent.js';
import type { DigestEvent } from '../events/digestEvent.js';
import { establishmentsOf, isEstablishmentEvent, type NotifierEvent } from '../events/notifierEvent.js';
import { isStaleAtDetection } from '../events/staleness.js';

export const MESSAGE_ATTRIBUTE_NAMES = [
  'type',
  'organization',
  'establishment',
  'status',
  'payment_method',
  'audience',
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

/** The `audience` value of subscriptions that take every event: webhooks, people without catch-ups. */
export const EVERY_EVENT_AUDIENCE = 'every-event';

/** The `audience` value of subscriptions whose `catchUpAfter` is this many seconds. */
export function catchUpAudience(catchUpAfterSeconds: number): string {
  return `catch-up-after-${catchUpAfterSeconds}s`;
}

/** The `type` of a re-sent e-mail: no event or digest is of it, and every event policy refuses it. */
export const RESEND_EVENT_TYPE = 'email.resend';

const RESEND_PREFIX = 'resend-to';

/** Which of a recipient's subscriptions: the events at once, or its subscriber's digests. */
export type ResendSubscriptionKind = 'events' | 'digest';

/** One e-mail subscription, as a re-sent e-mail's `audience` names it. */
export interface ResendTarget {
  subscriberId: string;
  kind: ResendSubscriptionKind;
  /** Lower-cased. */
  address: string;
}

/**
 * The `audience` of an e-mail re-sent to one subscription alone: `resend-to:<subscriber>:<kind>:<address>`.
 * The address is lower-cased, as SNS compares exactly; a subscriber id has no colon (its config schema).
 */
export function resendAudience(target: ResendTarget): string {
  return `${RESEND_PREFIX}:${target.subscriberId}:${target.kind}:${target.address.toLowerCase()}`;
}

/** The subscription a resend audience names, or undefined when `value` is not one. */
export function parseResendAudience(value: string): ResendTarget | undefined {
  const [prefix, subscriberId, kind, ...rest] = value.split(':');
  const address = rest.join(':');
  if (prefix !== RESEND_PREFIX || !subscriberId || address === '') return undefined;
  if (kind !== 'events' && kind !== 'digest') return undefined;
  return { subscriberId, kind, address };
}

/** The `MessageAttributes` of an e-mail re-sent to one subscription: only its resend branch lets it in. */
export function resendMessageAttributes(target: ResendTarget): Record<string, MessageAttributeValue> {
  return {
    type: { DataType: 'String', StringValue: RESEND_EVENT_TYPE },
    audience: { DataType: 'String', StringValue: resendAudience(target) },
  };
}

/** What the publisher knows of an event beside the event itself, for its `audience`. */
export interface AudienceContext {
  /** When its change happened at the source (epoch ms), as the poll cycle logged it; absent when unknown. */
  sourceTime?: number | undefined;
  /** The catch-up thresholds of the config's subscribers, in seconds. */
  catchUpAfterSeconds?: readonly number[] | undefined;
}

/** Whom the event is for: see the head of this file. */
export function eventAudiences(event: NotifierEvent, context: AudienceContext = {}): string[] {
  if (isCatchUp(event)) return [catchUpAudience(event.data.catch_up_after)];
  const timely = (context.catchUpAfterSeconds ?? []).filter(
    (seconds) => !isStaleAtDetection(event, context.sourceTime, seconds * 1000),
  );
  return [EVERY_EVENT_AUDIENCE, ...timely.map(catchUpAudience)];
}

/** The attribute values of an event; an attribute SNS could not carry is left out. */
function eventAttributeValues(
  event: NotifierEvent,
  context: AudienceContext,
): Partial<Record<MessageAttributeName, string | string[]>> {
  // Lower-cased like the config's uuids: SNS compares strings case-sensitively.
  const establishments = [...new Set(establishmentsOf(event).map((uuid) => uuid.toLowerCase()))];
  const audience = eventAudiences(event, context);
  const values: Record<Exclude<MessageAttributeName, 'digest'>, string | string[]> = {
    type: event.type,
    organization: event.data.organization.id.toLowerCase(),
    // Two for an order that moved: a policy naming either kitchen lets it through.
    establishment: oneOrList(establishments),
    ...orderValues(event),
    audience: oneOrList(audience),
  };
  // SNS rejects the whole publish for an empty String attribute. Leaving it out loses nothing: no filter
  // value is empty, so a policy naming that key would not have matched anyway.
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

/**
 * `status` and `payment_method`: an order's own; NOT_AN_ORDER for an establishment event (a prep summary or
 * its amendment); for a catch-up, every
 * value of the orders it counts, and its `type` theirs: a policy lets it through when it would have let one
 * of them through (subscriberFilter.ts says the same locally).
 */
function orderValues(event: NotifierEvent): {
  type?: string | string[];
  status: string | string[];
  payment_method: string | string[];
} {
  if (isEstablishmentEvent(event)) return { status: NOT_AN_ORDER, payment_method: NOT_AN_ORDER };
  if (isCatchUp(event)) {
    const { types, statuses, payment_methods } = event.data;
    return {
      type: oneOrList(types),
      status: oneOrList(statuses.map(orderValue).filter((value) => value !== '')),
      payment_method: oneOrList(payment_methods.map(orderValue).filter((value) => value !== '')),
    };
  }
  // An order's own value equal to the marker is left out, so it can never pass as a summary.
  const order = event.data.order;
  return { status: orderValue(order.status), payment_method: orderValue(order.payment_method) };
}

function oneOrList(values: readonly string[]): string | string[] {
  return values.length === 1 ? (values[0] ?? '') : values.length === 0 ? '' : [...values];
}

function orderValue(value: string): string {
  return value === NOT_AN_ORDER ? '' : value;
}

/**
 * The `MessageAttributes` of the event's SNS publish: `String`, or `String.Array` for a list. Whoever
 * publishes to the topic passes the config's thresholds: without them `audience` names `every-event` alone,
 * which no person's subscription with catch-ups on takes.
 */
export function eventMessageAttributes(
  event: NotifierEvent,
  context: AudienceContext = {},
): Record<string, MessageAttributeValue> {
  return Object.fromEntries(
    Object.entries(eventAttributeValues(event, context)).map(([name, value]) => [
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
