// The version of an order a board reply shows, as one string that sorts as the versions do: the order's
// updated_at, then when the event was recorded, then the transition's rank among events of one snapshot
// (a completion before its archiving). An older event compares lower and never overwrites a newer
// rendering; the same event handled again compares equal. Built and compared here only.
import type { OrderEvent } from '../../../events/orderEvent.js';

const RANK: Record<OrderEvent['type'], number> = {
  'order.created': 0,
  'order.updated': 1,
  'order.rescheduled': 2,
  'order.status_changed': 3,
  'order.completed': 4,
  'order.canceled': 4,
  'order.archived': 5,
};

/** Below every event's version: a claim made before the first rendering. */
export const NO_VERSION = '';

export function boardVersion(event: OrderEvent): string {
  const updated = Date.parse(event.data.order.updated_at ?? '');
  const recorded = Date.parse(event.time);
  return [
    pad(Number.isNaN(updated) ? 0 : updated),
    pad(Number.isNaN(recorded) ? 0 : recorded),
    RANK[event.type],
  ].join('.');
}

/** Whether version `a` is older than `b`. */
export function isOlder(a: string, b: string): boolean {
  return a < b;
}

function pad(ms: number): string {
  return String(Math.max(0, Math.trunc(ms))).padStart(15, '0');
}
