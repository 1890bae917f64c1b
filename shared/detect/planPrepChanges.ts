// Which prep_changed events a cycle records, and what they say (pure): for every establishment and pickup
// date whose summary was already sent, what this cycle's after-closing order changes did to what its
// kitchen must prepare, against what the kitchen last heard; at most one per establishment and date.
//
// Counts come from what the walks saw, never from guesses: each order is compared as the last cycle left
// it (its snapshot: where, whether canceled, its item lines) with how this cycle saw it. Per kitchen:
// - an order that counts here now and did not before adds its items: `created` (first seen), `moved_in`
//   (rescheduled from another establishment or day), `restored` (no longer canceled);
// - one that counted here and no longer does takes its items away, as last known (the snapshot's lines,
//   what the kitchen counted): `canceled`, or `moved_out` (rescheduled away, still to be cooked there);
// - one that counts here before and after changes by its item lines' difference, `updated`; a change of
//   notes alone is listed too (a kitchen cares about an allergy), with no units;
// - completed and archived change nothing that is cooked: an order picked up was cooked all the same.
import type { PrepChangedItem, PrepChangedOrder } from '../events/prepChangedEvent.js';
import { contentChanges } from './contentChanges.js';
import {
  type HeardItems,
  type PrepSummaries,
  type PrepSummaryRecord,
  prepSummaryKey,
} from './planPrepSummaries.js';
import type { OrderContent } from './snapshot.js';

/**
 * The most a summary's heard totals may weigh, as JSON, in the poll state (one DynamoDB item of 400 KB for
 * every record): a few hundred items. A menu larger than that gets no prep_changed, as a summary recorded
 * before totals were kept gets none, rather than a state too large to save.
 */
export const HEARD_ITEMS_MAX_BYTES = 16 * 1024;

/** An order as a kitchen counts it. */
export interface KitchenView {
  establishmentUuid: string;
  pickupDate: string;
  /** To be cooked: not canceled (pending, completed, or archived from completed). */
  counted: boolean;
  /** Its item lines and notes; absent from a snapshot stored before content was remembered. */
  content?: OrderContent | undefined;
}

export interface ChangedOrder {
  uuid: string;
  reference: string;
  /** Ids of this cycle's after-closing events about it. */
  eventIds: readonly string[];
  /** As the last cycle left it; undefined for an order first seen now. */
  before: KitchenView | undefined;
  /** As this cycle saw it. */
  after: KitchenView & { content: OrderContent };
}

export interface PrepChangesPlanInput {
  /**
   * The summaries recorded before this cycle: the ones its order events are after closing for. One
   * recorded this cycle counted this cycle's orders already.
   */
  summaries: PrepSummaries;
  orders: readonly ChangedOrder[];
}

export interface DueAmendment {
  /** prepSummaryKey of the establishment and date. */
  key: string;
  /** As the orders write it. */
  establishmentUuid: string;
  pickupDate: string;
  summary: PrepSummaryRecord & { items: HeardItems };
  /** Items whose units changed, from what the kitchen heard to now, by name then sku. */
  items: PrepChangedItem[];
  /** By reference, then uuid. */
  orders: PrepChangedOrder[];
  /** The order events behind it, sorted: with the summary's id, they make the event's id. */
  eventIds: string[];
}

interface Units {
  name: string;
  quantity: number;
}

interface Effect {
  change: PrepChangedOrder['change'];
  notesChanged: boolean;
  /** Units added (negative: taken away) by sku. */
  units: Map<string, Units>;
}

interface Gathered {
  establishmentUuid: string;
  pickupDate: string;
  summary: PrepSummaryRecord & { items: HeardItems };
  units: Map<string, Units>;
  orders: PrepChangedOrder[];
  eventIds: Set<string>;
}

export function planPrepChanges(input: PrepChangesPlanInput): DueAmendment[] {
  const byKey = new Map<string, Gathered>();
  for (const order of input.orders) {
    const views = [order.before, order.after].filter((view) => view !== undefined);
    for (const key of new Set(views.map(keyOf))) {
      const summary = input.summaries[key];
      // A summary recorded before the kitchen's totals were kept (or whose totals outgrew the state) has
      // no "from" to start from, and none is guessed: its kitchen gets the order events alone, as before.
      if (summary?.items === undefined) continue;
      const effect = effectOn(order, key);
      if (effect === undefined) continue;
      const view = views.find((candidate) => keyOf(candidate) === key) ?? order.after;
      const gathered = byKey.get(key) ?? {
        establishmentUuid: view.establishmentUuid,
        pickupDate: view.pickupDate,
        summary: { ...summary, items: summary.items },
        units: new Map<string, Units>(),
        orders: [],
        eventIds: new Set<string>(),
      };
      byKey.set(key, gathered);
      addUnits(gathered.units, effect.units, 1);
      gathered.orders.push({
        uuid: order.uuid,
        reference: order.reference,
        change: effect.change,
        ...(effect.notesChanged ? { notes_changed: true as const } : {}),
      });
      for (const id of order.eventIds) gathered.eventIds.add(id);
    }
  }
  return [...byKey.entries()].map(([key, gathered]) => ({
    key,
    establishmentUuid: gathered.establishmentUuid,
    pickupDate: gathered.pickupDate,
    summary: gathered.summary,
    items: itemDeltas(gathered.summary.items, gathered.units),
    orders: gathered.orders.sort((a, b) => compare(a.reference, b.reference) || compare(a.uuid, b.uuid)),
    eventIds: [...gathered.eventIds].sort(compare),
  }));
}

/** What the order did to the kitchen of `key`; undefined when nothing that kitchen cooks changed. */
function effectOn(order: ChangedOrder, key: string): Effect | undefined {
  const { before, after } = order;
  const wasHere = before !== undefined && keyOf(before) === key && before.counted;
  const isHere = keyOf(after) === key && after.counted;
  if (!wasHere && !isHere) return undefined;
  if (!isHere) {
    // Its items as last known: the snapshot's lines, which the kitchen counted; one stored before content
    // was remembered has none, and the order as seen now is then the best record of them.
    const units = unitsOf(before?.content ?? after.content, -1);
    return { change: after.counted ? 'moved_out' : 'canceled', notesChanged: false, units };
  }
  if (!wasHere) {
    const change = before === undefined ? 'created' : keyOf(before) === key ? 'restored' : 'moved_in';
    return { change, notesChanged: false, units: unitsOf(after.content, 1) };
  }
  // Counted here before and now: only its content can have changed. Without the content it had, the
  // change cannot be told, and the snapshot learns it silently (as diffOrder does).
  if (before?.content === undefined) return undefined;
  const changes = contentChanges(before.content, after.content);
  if (changes.length === 0) return undefined;
  const units = unitsOf(after.content, 1);
  addUnits(units, unitsOf(before.content, -1), 1);
  const notesChanged = changes.some((change) => change.field === 'notes' || change.field === 'item_notes');
  return { change: 'updated', notesChanged, units };
}

function keyOf(view: KitchenView): string {
  return prepSummaryKey(view.establishmentUuid, view.pickupDate);
}

/** Units by sku (as contentChanges counts them), times `sign`; the first line's name names the sku. */
function unitsOf(content: OrderContent, sign: 1 | -1): Map<string, Units> {
  const units = new Map<string, Units>();
  for (const line of content.lines) {
    const known = units.get(line.sku);
    units.set(line.sku, {
      name: known?.name ?? line.name,
      quantity: (known?.quantity ?? 0) + sign * line.quantity,
    });
  }
  return units;
}

function addUnits(into: Map<string, Units>, added: ReadonlyMap<string, Units>, sign: 1 | -1): void {
  for (const [sku, { name, quantity }] of added) {
    const known = into.get(sku);
    // A name seen on an order now wins over one taken away: it is how the kitchen knows the item today.
    into.set(sku, {
      name: known === undefined || (quantity > 0 && known.quantity <= 0) ? name : known.name,
      quantity: (known?.quantity ?? 0) + sign * quantity,
    });
  }
}

/**
 * From what the kitchen heard to what it must prepare now, for every sku whose units moved. Never below
 * zero: a summary short of orders (an incomplete one) may not have counted an order now taken away, and a
 * kitchen cannot cook fewer than nothing.
 */
function itemDeltas(heard: HeardItems, units: ReadonlyMap<string, Units>): PrepChangedItem[] {
  const items: PrepChangedItem[] = [];
  for (const [sku, { name, quantity }] of units) {
    if (quantity === 0) continue;
    const from = heard[sku]?.quantity ?? 0;
    const to = Math.max(0, from + quantity);
    if (to !== from) items.push({ sku, name, from, to });
  }
  return items.sort((a, b) => compare(a.name, b.name) || compare(a.sku, b.sku));
}

/**
 * What a kitchen heard from a summary's item lines, by sku; undefined when it would weigh more than
 * HEARD_ITEMS_MAX_BYTES (no prep_changed then).
 */
export function heardOf(
  items: readonly { sku: string; name: string; quantity: number }[],
): HeardItems | undefined {
  const heard: HeardItems = {};
  for (const { sku, name, quantity } of items) {
    if (quantity <= 0) continue;
    heard[sku] = { name: heard[sku]?.name ?? name, quantity: (heard[sku]?.quantity ?? 0) + quantity };
  }
  return fits(heard) ? heard : undefined;
}

/** What a kitchen heard once a prep_changed told it `items`; undefined when it outgrows HEARD_ITEMS_MAX_BYTES. */
export function heardAfter(heard: HeardItems, items: readonly PrepChangedItem[]): HeardItems | undefined {
  const next: HeardItems = { ...heard };
  for (const { sku, name, to } of items) {
    if (to > 0) next[sku] = { name, quantity: to };
    else delete next[sku];
  }
  return fits(next) ? next : undefined;
}

function fits(heard: HeardItems): boolean {
  return Buffer.byteLength(JSON.stringify(heard)) <= HEARD_ITEMS_MAX_BYTES;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
