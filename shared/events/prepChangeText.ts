// The plain-text wording of a prep_changed, one for Slack, e-mail and the CLI, each of which escapes it for
// its own medium: the summary's closing time as the kitchen knows it, an item's delta, an order's change.
//
// A late change is said once. Each order changed after closing has its own order event, flagged
// `after_closing`, whose message says what it did (canceled, new, moved, its notes) and shows the order;
// the prep_changed gathered from those events says what they did to the kitchen's totals ("Lasagne: 42 →
// 40") and names the orders behind them by reference only (ordersBehind), without telling again what
// each did. So a person's channel or inbox reads each change once, in its order's message, and the new
// totals once, in the prep_changed's. Decided here, in the words every message is made of, it holds for
// every human medium in both runtimes (the local outbox, the AWS Slack function, the SNS e-mail body, whose
// one text serves every e-mail subscriber); nothing is held back, so a subscriber that takes only prep
// messages still learns which orders to look at, and webhooks get both events as they are.
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

/**
 * "new order", "changed (notes)", …: what the order did to the kitchen's count, for machines' and
 * terminals' accounts; a person's message names the orders by reference only (ordersBehind).
 */
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

/**
 * The orders behind a prep_changed as a person's message lists them: by reference, in the event's order.
 * What each did is its own order message's to say (see the rule above), so it is not said here.
 */
export function ordersBehind(event: PrepChangedEvent): string[] {
  return event.data.orders.map((order) => order.reference);
}
