// Builds the `establishment.prep_summary` event (pure): the pending orders of one establishment and pickup
// date, as a complete walk found them at closing time, added up by item and by customer class. Whoever
// records it and however often, the same establishment and date get the same id.
import type { Order } from '../api/schemas.js';
import { PrepSummaryInputError } from './errors.js';
import { prepSummaryEventId } from './eventId.js';
import { DEFAULT_HIGHLIGHT_WORDS } from './noteHighlights.js';
import { orderNotes } from './orderNotes.js';
import {
  type ClassCount,
  PREP_SUMMARY_EVENT_TYPE,
  type PrepSummaryEvent,
  PrepSummaryEventSchema,
  type PrepSummaryItem,
  type PrepSummaryNote,
} from './prepSummaryEvent.js';

/**
 * How many bytes of JSON the item lines and the notes may take together. The event is stored in one
 * DynamoDB item (400 KB) and published in one SNS message (256 KB) that also holds its e-mail text, so a
 * menu that would pass that is cut to its most-ordered items, and the summary says so. The notes are
 * counted first (they are few on any real day, and an allergy must not give way to a dessert's total);
 * the items get what they leave.
 */
export const PREP_SUMMARY_ITEMS_MAX_BYTES = 96 * 1024;

/**
 * How many bytes of JSON the notes may take, out of PREP_SUMMARY_ITEMS_MAX_BYTES: the notes that would pass
 * it are left out (`notes_omitted`), the last ones first, which are never the flagged ones while there are
 * unflagged ones.
 */
export const PREP_SUMMARY_NOTES_MAX_BYTES = 24 * 1024;

/** A note longer than this is cut, ending in "…": a summary lists notes, it does not carry essays. */
export const PREP_SUMMARY_NOTE_MAX_CHARS = 500;

/** What every event about one kitchen's day starts from: whose, which establishment and day, from where, when. */
export interface KitchenDayInput {
  organization: { id: string; name: string };
  establishment: { uuid: string; name: string };
  /** YYYY-MM-DD. */
  pickupDate: string;
  /** CloudEvents `source`: `<base_url>/organizations/<org uuid>`. */
  source: string;
  /** When the event was recorded (RFC 3339). */
  time: string;
}

export interface PrepSummaryInput extends KitchenDayInput {
  /** The establishment's closing time that day, RFC 3339 with its UTC offset. */
  closedAt: string;
  /** The pending orders of that establishment and date, from a complete walk (or as much as could be had). */
  orders: readonly Order[];
  /** Orders of that establishment and date canceled before closing. */
  canceledBeforeClosing: number;
  /** Why the figures are not the whole truth (a walk cut short, a stale listing); absent when they are. */
  incompleteReason?: string | undefined;
  /** The organization's words that flag a note (noteHighlights.ts). @default DEFAULT_HIGHLIGHT_WORDS */
  highlightWords?: readonly string[] | undefined;
}

/** @throws PrepSummaryInputError when the inputs would make a wrong summary (an order of another day, …) */
export function buildPrepSummary(input: PrepSummaryInput): PrepSummaryEvent {
  const { establishment, pickupDate } = input;
  const refuse = (problem: string, cause?: unknown) =>
    new PrepSummaryInputError(establishment.uuid, pickupDate, problem, cause === undefined ? {} : { cause });
  if (!Number.isInteger(input.canceledBeforeClosing) || input.canceledBeforeClosing < 0) {
    throw refuse(`canceledBeforeClosing must be a whole number ≥ 0, got ${input.canceledBeforeClosing}`);
  }
  if (input.incompleteReason !== undefined && input.incompleteReason.trim() === '') {
    throw refuse('an incomplete summary needs a reason that says something');
  }
  const orders = latestOfEach(input.orders);
  for (const order of orders) {
    const where = `order ${order.reference} (${order.uuid})`;
    if (order.establishment.uuid.toLowerCase() !== establishment.uuid.toLowerCase())
      throw refuse(`${where} belongs to establishment ${order.establishment.uuid}`);
    if (order.pickup_at !== pickupDate) throw refuse(`${where} is for pickup on ${order.pickup_at}`);
    if (order.status.value !== 'pending') throw refuse(`${where} is ${order.status.value}, not pending`);
  }

  const { notes, omitted, bytes } = fitNotes(
    notesOf(orders, input.highlightWords ?? DEFAULT_HIGHLIGHT_WORDS),
  );
  const { items, cut } = fitItems(itemTotals(orders), PREP_SUMMARY_ITEMS_MAX_BYTES - bytes);
  const reasons = [input.incompleteReason?.trim(), cut].filter((reason) => reason !== undefined);
  const event = {
    specversion: '1.0',
    id: prepSummaryEventId(input.organization.id, establishment.uuid, pickupDate),
    source: input.source,
    type: PREP_SUMMARY_EVENT_TYPE,
    subject: establishment.uuid,
    time: input.time,
    datacontenttype: 'application/json',
    data: {
      // Copied field by field: the public contract carries these and nothing else of what was passed.
      organization: { id: input.organization.id, name: input.organization.name },
      establishment: { uuid: establishment.uuid, name: establishment.name },
      pickup_date: pickupDate,
      closed_at: input.closedAt,
      orders: orders.length,
      items,
      classes: classCounts(orders),
      canceled_before_closing: input.canceledBeforeClosing,
      notes,
      ...(omitted > 0 ? { notes_omitted: omitted } : {}),
      complete: reasons.length === 0,
      ...(reasons.length > 0 ? { incomplete_reason: reasons.join('; ') } : {}),
    },
  };
  const parsed = PrepSummaryEventSchema.safeParse(event);
  if (!parsed.success) throw refuse(`not a valid event: ${parsed.error.message}`, parsed.error);
  return parsed.data;
}

/**
 * One record per order: a listing that shifted while it was walked can show an order twice, and counting
 * it twice would be silently wrong. The later sighting wins.
 */
function latestOfEach(orders: readonly Order[]): Order[] {
  const byUuid = new Map<string, Order>();
  for (const order of orders) {
    const key = order.uuid.toLowerCase();
    const seen = byUuid.get(key);
    if (seen === undefined || seen.updated_at <= order.updated_at) byUuid.set(key, order);
  }
  return [...byUuid.values()];
}

/** Units per (sku, name), most first; ties by name, then sku, by code unit so every runtime agrees. */
function itemTotals(orders: readonly Order[]): PrepSummaryItem[] {
  const totals = new Map<string, PrepSummaryItem>();
  for (const order of orders) {
    for (const { sku, name, quantity } of order.items) {
      const key = JSON.stringify([sku, name]);
      const total = totals.get(key);
      if (total) total.quantity += quantity;
      else totals.set(key, { sku, name, quantity });
    }
  }
  // Nothing to prepare is not a line: an item ordered zero times says nothing to a kitchen.
  return [...totals.values()]
    .filter((item) => item.quantity > 0)
    .sort((a, b) => b.quantity - a.quantity || compare(a.name, b.name) || compare(a.sku, b.sku));
}

function fitItems(items: PrepSummaryItem[], maxBytes: number): { items: PrepSummaryItem[]; cut?: string } {
  let bytes = 0;
  for (const [index, item] of items.entries()) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (bytes > maxBytes) {
      return {
        items: items.slice(0, index),
        cut: `only the ${index} most-ordered of ${items.length} items are listed: the whole list is larger than an event may be`,
      };
    }
  }
  return { items };
}

/**
 * Every order's notes with its reference and class: flagged first, then by reference (by code unit, so
 * every runtime agrees), each order's own note before its lines'.
 */
function notesOf(orders: readonly Order[], highlightWords: readonly string[]): PrepSummaryNote[] {
  const notes = orders.flatMap((order) =>
    orderNotes(order, highlightWords).map(
      ({ item, note, flagged }): PrepSummaryNote => ({
        reference: order.reference,
        class: order.customer.class,
        ...(item === undefined ? {} : { item }),
        note: cutNote(note),
        flagged,
      }),
    ),
  );
  // A stable sort: within one order, the order orderNotes gave.
  return notes.sort((a, b) => Number(b.flagged) - Number(a.flagged) || compare(a.reference, b.reference));
}

function cutNote(note: string): string {
  const trimmed = note.trim();
  const chars = [...trimmed];
  return chars.length <= PREP_SUMMARY_NOTE_MAX_CHARS
    ? trimmed
    : `${chars.slice(0, PREP_SUMMARY_NOTE_MAX_CHARS - 1).join('')}…`;
}

function fitNotes(notes: PrepSummaryNote[]): { notes: PrepSummaryNote[]; omitted: number; bytes: number } {
  let bytes = 0;
  for (const [index, note] of notes.entries()) {
    const more = Buffer.byteLength(JSON.stringify(note)) + 1;
    if (bytes + more > PREP_SUMMARY_NOTES_MAX_BYTES)
      return { notes: notes.slice(0, index), omitted: notes.length - index, bytes };
    bytes += more;
  }
  return { notes, omitted: 0, bytes };
}

/** Orders per customer class, most first, then by class; customers without one last among equals. */
function classCounts(orders: readonly Order[]): ClassCount[] {
  const counts = new Map<string | null, number>();
  for (const order of orders) counts.set(order.customer.class, (counts.get(order.customer.class) ?? 0) + 1);
  return [...counts.entries()]
    .map(([name, count]) => ({ class: name, orders: count }))
    .sort((a, b) => b.orders - a.orders || compareClass(a.class, b.class));
}

function compareClass(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compare(a, b);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
