// What is stale (pure): an order event whose change happened longer than a subscriber's `catchUpAfter`
// before it could reach that subscriber. The change is dated by the API's own timestamps (the source time
// the poll cycle found, transitionTime.ts), or by the event's detection when the API does not tell. On AWS
// it is judged at detection (the poller went unpolled); locally at delivery as well (held up in the
// outbox). Prep summaries, catch-ups and samples are never stale: a kitchen still needs its prep list.
import { isOrderEvent, type NotifierEvent } from './notifierEvent.js';
import { type FieldChange, isFieldChange, type OrderEvent } from './orderEvent.js';
import { isSampleEvent } from './sampleEvent.js';

/** Whether the event may ever be folded into a catch-up. */
export function canGoStale(event: NotifierEvent): boolean {
  return isOrderEvent(event) && !isSampleEvent(event);
}

/** When the event's change happened (epoch ms): its source time, or its detection when there is none. */
export function changedAt(event: NotifierEvent, sourceTime: number | undefined): number {
  return sourceTime ?? Date.parse(event.time);
}

/**
 * When an order event's change happened as the event itself tells, for a sender handed the event alone (the
 * kitchen's board): the order's created_at for a new order, the completed_at or canceled_at it reports for
 * those transitions, and otherwise the updated_at of the order as the event carries it, which dates this
 * change. Undefined when the event does not say; changedAt then falls back to its detection.
 */
export function changeTimeOf(event: OrderEvent): number | undefined {
  const order = event.data.order;
  const reported = (field: 'completed_at' | 'canceled_at') =>
    event.data.changes.find(
      (change): change is FieldChange => isFieldChange(change) && change.field === field,
    )?.to;
  const at =
    event.type === 'order.created'
      ? order.created_at
      : event.type === 'order.completed'
        ? reported('completed_at')
        : event.type === 'order.canceled'
          ? reported('canceled_at')
          : undefined;
  const ms = Date.parse(at ?? order.updated_at ?? '');
  return Number.isNaN(ms) ? undefined : ms;
}

/** Whether the event, sent at `atMs`, would reach a subscriber more than `catchUpAfterMs` after its change. */
export function isStale(
  event: NotifierEvent,
  sourceTime: number | undefined,
  atMs: number,
  catchUpAfterMs: number,
): boolean {
  return canGoStale(event) && atMs - changedAt(event, sourceTime) > catchUpAfterMs;
}

/** Whether the event was already stale when it was detected (its `time`): the organization went unpolled. */
export function isStaleAtDetection(
  event: NotifierEvent,
  sourceTime: number | undefined,
  catchUpAfterMs: number,
): boolean {
  return isStale(event, sourceTime, Date.parse(event.time), catchUpAfterMs);
}
