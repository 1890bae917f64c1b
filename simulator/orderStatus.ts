// Moves an order between statuses the way the records show it: canceled_at only while canceled,
// completed_at only while completed (an archived order keeps the one from the step before), and a
// strictly later updated_at on every change.
import type { Order, OrderItem, OrderStatus, PaymentMethod, StatusObject } from '../shared/api/schemas.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';

const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  canceled: 'Canceled',
  archived: 'Archived',
};

const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  card: 'Debit or credit card',
  credit: 'Credit',
};

export function statusObject(status: OrderStatus): StatusObject {
  return { label: STATUS_LABELS[status], value: status };
}

export function paymentMethodObject(method: PaymentMethod): StatusObject {
  return { label: PAYMENT_METHOD_LABELS[method], value: method };
}

/** The updated_at for a change at `atMicros`: never earlier than, nor equal to, the previous one. */
export function nextUpdateMicros(order: Pick<Order, 'updated_at'>, atMicros: number): number {
  return Math.max(atMicros, parseTimestamp(order.updated_at) + 1);
}

/** A copy of `order` in `status`; the same order unchanged (but copied) when it already is. */
export function withStatus(order: Order, status: OrderStatus, atMicros: number): Order {
  // Shallow: nested records are never edited in place, so the new version may share them with the old.
  const copy = { ...order };
  if (order.status.value === status) return copy;
  const stamp = formatTimestamp(nextUpdateMicros(order, atMicros));
  copy.status = statusObject(status);
  copy.updated_at = stamp;
  copy.can_be_cancelled = status === 'pending';
  if (status === 'pending') {
    copy.canceled_at = null;
    copy.completed_at = null;
  } else if (status === 'completed') {
    copy.completed_at = stamp;
    copy.canceled_at = null;
  } else if (status === 'canceled') {
    copy.canceled_at = stamp;
    copy.completed_at = null;
  }
  if (status !== 'archived') copy.items = copy.items.map((item) => itemIn(item, status));
  return copy;
}

function itemIn(item: OrderItem, status: Exclude<OrderStatus, 'archived'>): OrderItem {
  const fulfilled = status === 'completed';
  return {
    ...item,
    status: statusObject(status),
    fulfilled_quantity: fulfilled ? item.quantity : 0,
    fulfillment_status: fulfilled ? 'fulfilled' : 'unfulfilled',
  };
}
