// The plain-text wording of a prep_changed, one for Slack, e-mail and the CLI, each of which escapes it for
// its own medium: the summary's closing time as the kitchen knows it, an item's delta, an order's change.
import { counted } from '../text/counted.js';
import type { PrepChangedEvent, PrepChangedItem, PrepChangedOrder } from './prepChangedEvent.js';

/**
 * "11:00": the summary's closing time in the establishment's own zone, as `summary_closed_at` writes it
 * (with its offset); the timestamp as given if it is not one.
 */
export function summaryClock(closedAt: string): string {
  return /T(\d{2}:\d{2})/.exec(closedAt)?.[1] ?? closedAt;
}

/** "Lasagne: 42 → 40"; `name` is the item's name as the caller prints it (with its sku when two share it). */
export function itemDeltaText(item: PrepChangedItem, name: string = item.name): string {
  return `${name}: ${item.from} → ${item.to}`;
}

const CHANGE_WORDS: Record<PrepChangedOrder['change'], string> = {
  created: 'new order',
  canceled: 'canceled',
  restored: 'no longer canceled',
  updated: 'changed',
  moved_in: 'moved here',
  moved_out: 'moved away',
};

/** "new order", "changed (notes)", …: what the order did to the kitchen's count. */
export function orderChangeText(order: PrepChangedOrder): string {
  return `${CHANGE_WORDS[order.change]}${order.notes_changed ? ' (notes)' : ''}`;
}

/**
 * Item names as printed: two deltas of one name (different skus) each get their sku, to tell them apart,
 * as the prep summary prints them.
 */
export function itemNames(items: PrepChangedEvent['data']['items']): string[] {
  const seen = new Map<string, number>();
  for (const item of items) seen.set(item.name, (seen.get(item.name) ?? 0) + 1);
  return items.map((item) =>
    (seen.get(item.name) ?? 0) > 1 && item.sku !== '' ? `${item.name} (${item.sku})` : item.name,
  );
}

/** Deltas named in a one-line account before the rest are counted: a line, not a list. */
const NAMED_DELTAS = 3;

/**
 * The whole prep_changed in one line, for a terminal or a notification's fallback, the counts first so
 * that cutting the line keeps them: "2 orders · Lasagne: 42 → 40 · Soup: 3 → 4", or, when only notes
 * changed, "1 order · notes only".
 */
export function prepChangedLine(event: PrepChangedEvent): string {
  const { items, orders } = event.data;
  const orderCount = counted(orders.length + (event.data.orders_omitted ?? 0), 'order');
  if (items.length === 0) return `${orderCount} · notes only`;
  const names = itemNames(items);
  const named = items.slice(0, NAMED_DELTAS).map((item, index) => itemDeltaText(item, names[index]));
  const rest = items.length - named.length + (event.data.items_omitted ?? 0);
  return [orderCount, ...named, ...(rest > 0 ? [counted(rest, 'more item')] : [])].join(' · ');
}
