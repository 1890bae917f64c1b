// What a board keeps of one order (pure): whether its kitchen cooks it, its items and its notes, from the
// order as the event carries it.

import type { OrderEvent } from '../../../events/orderEvent.js';
import { orderNotes } from '../../../events/orderNotes.js';
import type { OrderCard } from './boardMessages.js';

/** The order is off: canceled (archived after a cancellation too). */
export function isCanceled(event: OrderEvent): boolean {
  const order = event.data.order;
  return order.status === 'canceled' || (order.canceled_at !== null && order.canceled_at !== undefined);
}

/**
 * The order's card on a board. `movedTo` for the board it left: it no longer counts there.
 */
export function cardOf(event: OrderEvent, highlightWords: readonly string[], movedTo?: string): OrderCard {
  const order = event.data.order;
  const canceled = isCanceled(event);
  return {
    uuid: order.uuid,
    reference: order.reference,
    counted: !canceled && movedTo === undefined,
    canceled,
    ...(movedTo === undefined ? {} : { movedTo }),
    items: order.items.map((line) => ({
      ...(line.sku === undefined ? {} : { sku: line.sku }),
      name: line.name,
      quantity: line.quantity,
    })),
    notes: orderNotes(order, highlightWords).map(({ item, note, flagged }) => ({
      label: item === undefined ? order.reference : `${order.reference} · ${item.name}`,
      note,
      flagged,
    })),
  };
}

/** Whether going from `before` to `after` changes what the kitchen cooks: counted, items or notes. A completion does not. */
export function changesWhatIsCooked(before: OrderCard | undefined, after: OrderCard): boolean {
  const was = before?.counted ? before : undefined;
  const now = after.counted ? after : undefined;
  if (was === undefined && now === undefined) return false;
  if (was === undefined || now === undefined) return true;
  return (
    JSON.stringify(was.items.map(({ name, quantity }) => [name, quantity])) !==
      JSON.stringify(now.items.map(({ name, quantity }) => [name, quantity])) ||
    JSON.stringify(was.notes) !== JSON.stringify(now.notes)
  );
}
