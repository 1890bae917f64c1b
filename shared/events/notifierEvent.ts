// Every event the product records and delivers: the order events, the establishment events (the prep
// summaries and their amendments, prep_changed) and the catch-ups, one union discriminated by `type`, and
// the one list of types that config validation, SNS filter policies and message attributes all read.
import * as z from 'zod';
import { CATCH_UP_EVENT_TYPE, type CatchUpEvent, CatchUpEventSchema, isCatchUp } from './catchUpEvent.js';
import { type FieldChange, ORDER_EVENT_TYPES, type OrderEvent, OrderEventSchema } from './orderEvent.js';
import {
  PREP_CHANGED_EVENT_TYPE,
  type PrepChangedEvent,
  PrepChangedEventSchema,
} from './prepChangedEvent.js';
import {
  PREP_SUMMARY_EVENT_TYPE,
  type PrepSummaryEvent,
  PrepSummaryEventSchema,
} from './prepSummaryEvent.js';

/** The events about one establishment's pickup date rather than one order: no status, no payment method. */
export const ESTABLISHMENT_EVENT_TYPES = [PREP_SUMMARY_EVENT_TYPE, PREP_CHANGED_EVENT_TYPE] as const;

export const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...ESTABLISHMENT_EVENT_TYPES, CATCH_UP_EVENT_TYPE] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

export const NotifierEventSchema = z.discriminatedUnion('type', [
  OrderEventSchema,
  PrepSummaryEventSchema,
  PrepChangedEventSchema,
  CatchUpEventSchema,
]);
export type EstablishmentEvent = PrepSummaryEvent | PrepChangedEvent;
export type NotifierEvent = OrderEvent | EstablishmentEvent | CatchUpEvent;

/**
 * About one order (`data.order`, its status and payment method). Ask this rather than naming the other
 * kinds, so that a new kind is not taken for an order.
 */
export function isOrderEvent(event: NotifierEvent): event is OrderEvent {
  return (ORDER_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** About one establishment's pickup date: a prep summary or its amendment. */
export function isEstablishmentEvent(event: NotifierEvent): event is EstablishmentEvent {
  return (ESTABLISHMENT_EVENT_TYPES as readonly string[]).includes(event.type);
}

export function isPrepSummary(event: NotifierEvent): event is PrepSummaryEvent {
  return event.type === PREP_SUMMARY_EVENT_TYPE;
}

export function isPrepChanged(event: NotifierEvent): event is PrepChangedEvent {
  return event.type === PREP_CHANGED_EVENT_TYPE;
}

/**
 * What an operator recognizes the event by in a table or a log line: the order's reference, or the
 * establishment and pickup date a summary (or its amendment) is for.
 */
export function eventReference(event: NotifierEvent): string {
  if (isEstablishmentEvent(event)) return `${event.data.establishment.name} ${event.data.pickup_date}`;
  if (isCatchUp(event)) return `catch-up of ${event.data.events} (${event.data.organization.name})`;
  return event.data.order.reference;
}

/**
 * The establishments an event is about, as given: an establishment event's own; an order's current one,
 * and the one it left when its changes say it moved, so that both kitchens hear of the move; every one a
 * catch-up counts.
 */
export function establishmentsOf(event: NotifierEvent): string[] {
  if (isEstablishmentEvent(event)) return [event.data.establishment.uuid];
  if (isCatchUp(event)) return event.data.establishments;
  const current = event.data.order.establishment.uuid;
  const left = event.data.changes.find(
    (change): change is FieldChange => change.field === 'establishment',
  )?.from;
  return left === null || left === undefined || left.toLowerCase() === current.toLowerCase()
    ? [current]
    : [current, left];
}
