// Which events a configuration announces (pure): `statuses` names the statuses whose transitions people
// want to hear about. It never limits where the poller looks, only what it records.
import type { OrderEvent } from '../events/orderEvent.js';

const STATUS_OF_TYPE: Partial<Record<OrderEvent['type'], string>> = {
  'order.completed': 'completed',
  'order.canceled': 'canceled',
  'order.archived': 'archived',
};

/** The status an event announces: the one it moves to, or, for a new order, the one it was found in. */
export function announcedStatus(event: OrderEvent): string {
  return STATUS_OF_TYPE[event.type] ?? event.data.order.status;
}

export function announcedEvents(events: readonly OrderEvent[], statuses: readonly string[]): OrderEvent[] {
  return events.filter((event) => statuses.includes(announcedStatus(event)));
}
