// The compact order summary carried by every order event, and its redaction for subscribers that did not
// opt in to contact details.
import type { Order } from '../api/schemas.js';
import type { NotifierEvent } from './notifierEvent.js';
import type { OrderSummary } from './orderEvent.js';

/** The summary with parent e-mail and phone; delivery strips them unless a subscriber opts in. */
export function summarizeOrder(order: Order): OrderSummary {
  const parent = order.customer.parent;
  return {
    uuid: order.uuid,
    reference: order.reference,
    status: order.status.value,
    pickup_date: order.pickup_at,
    establishment: { uuid: order.establishment.uuid, name: order.establishment.name },
    customer: {
      name: order.customer.full_name,
      class: order.customer.class,
      parent: parent ? { name: parent.full_name, email: parent.email, phone: parent.phone } : null,
    },
    total: { amount: order.total.amount, currency: order.total.currency, formatted: order.total.formatted },
    payment_method: order.payment_method_type.value,
    items: order.items.map((item) => ({ sku: item.sku, name: item.name, quantity: item.quantity })),
  };
}

/**
 * The event as a subscriber sees it: without parent e-mail and phone unless it opted in. A prep summary
 * names no customer, so it is the same for everyone.
 */
export function eventForSubscriber<Event extends NotifierEvent>(
  event: Event,
  includeContactDetails: boolean,
): Event;
export function eventForSubscriber(event: NotifierEvent, includeContactDetails: boolean): NotifierEvent {
  if (event.type === 'establishment.prep_summary') return event;
  const parent = event.data.order.customer.parent;
  if (includeContactDetails || !parent) return event;
  return {
    ...event,
    data: {
      ...event.data,
      order: {
        ...event.data.order,
        customer: { ...event.data.order.customer, parent: { name: parent.name } },
      },
    },
  };
}
