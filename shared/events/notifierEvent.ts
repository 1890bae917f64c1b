// Every event the product records and delivers: the order events, the prep summaries and the catch-ups,
// one union discriminated by `type`, and the one list of types that config validation, SNS filter policies
// and message attributes all read.
import * as z from 'zod';
import { CATCH_UP_EVENT_TYPE, type CatchUpEvent, CatchUpEventSchema, isCatchUp } from './catchUpEvent.js';
import {
  type FieldChange,
  ORDER_EVENT_TYPES,
  type OrderEvent,
  OrderEventSchema,
  OrderEventTypeSchema,
} from './orderEvent.js';
import {
  PREP_SUMMARY_EVENT_TYPE,
  type PrepSummaryEvent,
  PrepSummaryEventSchema,
} from './prepSummaryEvent.js';

export const EVENT_TYPES = [...ORDER_EVENT_TYPES, PREP_SUMMARY_EVENT_TYPE, CATCH_UP_EVENT_TYPE] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

export const NotifierEventSchema = z.discriminatedUnion('type', [
  OrderEventSchema,
  PrepSummaryEventSchema,
  CatchUpEventSchema,
]);
export type NotifierEvent = OrderEvent | PrepSummaryEvent | CatchUpEvent;

export function isPrepSummary(event: NotifierEvent): event is PrepSummaryEvent {
  return event.type === PREP_SUMMARY_EVENT_TYPE;
}

/** An event about one order's transition (not a summary or a catch-up). */
export function isOrderEvent(event: NotifierEvent): event is OrderEvent {
  return OrderEventTypeSchema.safeParse(event.type).success;
}

/**
 * What an operator recognizes the event by in a table or a log line: the order's reference, or the
 * establishment and pickup date a summary is for.
 */
export function eventReference(event: NotifierEvent): string {
  if (isPrepSummary(event)) return `${event.data.establishment.name} ${event.data.pickup_date}`;
  if (isCatchUp(event)) return `catch-up of ${event.data.events} (${event.data.organization.name})`;
  return event.data.order.reference;
}

/**
 * The establishments an event is about, as given: a summary's own; an order's current one, and the one it
 * left when its changes say it moved, so that both kitchens hear of the move; every one a catch-up counts.
 */
export function establishmentsOf(event: NotifierEvent): string[] {
  if (isPrepSummary(event)) return [event.data.establishment.uuid];
  if (isCatchUp(event)) return event.data.establishments;
  const current = event.data.order.establishment.uuid;
  const left = event.data.changes.find(
    (change): change is FieldChange => change.field === 'establishment',
  )?.from;
  return left === null || left === undefined || left.toLowerCase() === current.toLowerCase()
    ? [current]
    : [current, left];
}
