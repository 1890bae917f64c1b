// When the change an event reports happened at the source, for the detection latency (the poll cycle's
// report, the demo): the order's created_at for a new order, completed_at or canceled_at for those
// transitions, updated_at otherwise, and the closing time for a prep summary (how long after closing it
// went out). A prep_changed has none of its own: it gathers order events, each dated by its own order. A
// catch-up has none either. The event itself carries only the detection time.
import type { Order } from '../api/schemas.js';
import { isOrderEvent, isPrepSummary, type NotifierEvent } from '../events/notifierEvent.js';
import type { FieldChange } from '../events/orderEvent.js';

/** Epoch ms, or undefined when the order no longer tells (it moved on, or is gone). */
export function transitionTime(event: NotifierEvent, order: Order | undefined): number | undefined {
  if (isPrepSummary(event)) return parse(event.data.closed_at);
  // A catch-up is no change at the source: it is made of changes already dated.
  if (!isOrderEvent(event)) return undefined;
  const changed = (field: 'completed_at' | 'canceled_at') =>
    event.data.changes.find((change): change is FieldChange => change.field === field)?.to ??
    order?.[field] ??
    undefined;
  switch (event.type) {
    case 'order.created':
      return parse(order?.created_at);
    case 'order.completed':
      return parse(changed('completed_at'));
    case 'order.canceled':
      return parse(changed('canceled_at'));
    default:
      // updated_at moves with every change: it dates this one only while the order still is as reported.
      return order?.status.value === event.data.order.status ? parse(order.updated_at) : undefined;
  }
}

function parse(timestamp: string | null | undefined): number | undefined {
  if (timestamp === null || timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}
