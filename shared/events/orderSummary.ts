// The order as every order event carries it: the whole order, normalized, with fields the API adds later
// kept; cut to fit what carries it; and its redaction for subscribers that did not opt in to contact details.
import { CustomerSchema, type Order, type OrderItem, OrderItemSchema, OrderSchema } from '../api/schemas.js';
import { isOrderEvent, type NotifierEvent } from './notifierEvent.js';
import type { OrderLine, OrderSummary } from './orderEvent.js';

/**
 * The most an event may weigh, as JSON: what a webhook's receiver is promised, and what leaves room in an
 * SNS message (256 KB) for the event escaped inside it, the e-mail body beside it and the attributes. An
 * order heavier than this keeps its first item lines (`items_omitted` counts the rest).
 */
export const MAX_EVENT_BYTES = 128 * 1024;

/** The fields of the API's records that the summary renames or reshapes: every other field goes as it came. */
const ORDER_FIELDS = new Set(Object.keys(OrderSchema.shape));
const ITEM_FIELDS = new Set(Object.keys(OrderItemSchema.shape));
const CUSTOMER_FIELDS = new Set(Object.keys(CustomerSchema.shape));

function unnamed(record: object, named: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !named.has(key)));
}

/** The whole order, with parent e-mail and phone; delivery strips them unless a subscriber opts in. */
export function summarizeOrder(order: Order): OrderSummary {
  const { customer } = order;
  const parent = customer.parent;
  return {
    ...unnamed(order, ORDER_FIELDS),
    uuid: order.uuid,
    reference: order.reference,
    status: order.status.value,
    pickup_date: order.pickup_at,
    establishment: { uuid: order.establishment.uuid, name: order.establishment.name },
    customer: {
      ...unnamed(customer, CUSTOMER_FIELDS),
      uuid: customer.uuid,
      name: customer.full_name,
      class: customer.class,
      parent: parent
        ? { uuid: parent.uuid, name: parent.full_name, email: parent.email, phone: parent.phone }
        : null,
    },
    currency: order.currency,
    subtotal: { ...order.subtotal },
    total: { amount: order.total.amount, currency: order.total.currency, formatted: order.total.formatted },
    payment_method: order.payment_method_type.value,
    notes: order.notes,
    created_at: order.created_at,
    updated_at: order.updated_at,
    canceled_at: order.canceled_at,
    completed_at: order.completed_at,
    can_be_cancelled: order.can_be_cancelled,
    items: order.items.map(lineOf),
  };
}

function lineOf(item: OrderItem): OrderLine {
  return {
    ...unnamed(item, ITEM_FIELDS),
    uuid: item.uuid,
    sku: item.sku,
    name: item.name,
    description: item.description,
    price: { ...item.price },
    quantity: item.quantity,
    total: { ...item.total },
    image: item.image,
    notes: item.notes,
    fulfilled_quantity: item.fulfilled_quantity,
    fulfillment_status: item.fulfillment_status,
    is_menu: item.is_menu,
    status: item.status.value,
    created_at: item.created_at,
  };
}

/**
 * The event, its order cut to its first item lines if it would weigh more than MAX_EVENT_BYTES, and
 * `items_omitted` saying how many were left out. An event that fits is returned as it is.
 */
export function fittedToCarrier<Event extends { data: { order: OrderSummary } }>(event: Event): Event {
  const bytes = (candidate: Event) => Buffer.byteLength(JSON.stringify(candidate));
  if (bytes(event) <= MAX_EVENT_BYTES) return event;
  const { items, items_omitted: omitted = 0 } = event.data.order;
  const withLines = (kept: number): Event => ({
    ...event,
    data: {
      ...event.data,
      order: {
        ...event.data.order,
        items: items.slice(0, kept),
        items_omitted: omitted + items.length - kept,
      },
    },
  });
  // The most lines that fit: lines are alike in size, so a binary search needs a handful of tries.
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (bytes(withLines(middle)) <= MAX_EVENT_BYTES) low = middle;
    else high = middle - 1;
  }
  return withLines(low);
}

/**
 * The event as a subscriber sees it: without parent e-mail and phone unless it opted in. An establishment
 * event (a prep summary, a prep_changed) names no customer, so it is the same for everyone.
 */
export function eventForSubscriber<Event extends NotifierEvent>(
  event: Event,
  includeContactDetails: boolean,
): Event;
export function eventForSubscriber(event: NotifierEvent, includeContactDetails: boolean): NotifierEvent {
  // Only an order event names a customer: a summary or a catch-up is the same for everyone.
  if (!isOrderEvent(event)) return event;
  const parent = event.data.order.customer.parent;
  if (includeContactDetails || !parent) return event;
  const { email: _email, phone: _phone, ...named } = parent;
  return {
    ...event,
    data: {
      ...event.data,
      order: { ...event.data.order, customer: { ...event.data.order.customer, parent: named } },
    },
  };
}
