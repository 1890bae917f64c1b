// Builds the `establishment.prep_changed` event (pure): the item deltas and the orders behind them that a
// planner found for one establishment and pickup date whose summary was sent. Its id comes from the summary
// it amends and the order events it gathers, so the same gathering is one event however often recorded.
import type { KitchenDayInput } from './buildPrepSummary.js';
import { PrepChangedInputError } from './errors.js';
import { prepChangedEventId } from './eventId.js';
import {
  PREP_CHANGED_EVENT_TYPE,
  type PrepChangedEvent,
  PrepChangedEventSchema,
  type PrepChangedItem,
  type PrepChangedOrder,
} from './prepChangedEvent.js';

/**
 * How many bytes of JSON the item deltas, and separately the orders, may take: together well within what
 * carries an event (MAX_EVENT_BYTES, orderSummary.ts). Only a cycle that moved hundreds of orders or items
 * at once comes near; the rest is then counted in `items_omitted` or `orders_omitted`.
 */
export const PREP_CHANGED_LIST_MAX_BYTES = 48 * 1024;

export interface PrepChangedInput extends KitchenDayInput {
  /** The id of the summary amended. */
  summaryId: string;
  /** That summary's closing time, RFC 3339 with the establishment's UTC offset. */
  summaryClosedAt: string;
  items: readonly PrepChangedItem[];
  orders: readonly PrepChangedOrder[];
  /** The ids of the order events behind it. */
  gathered: readonly string[];
}

/** @throws PrepChangedInputError when the inputs would make a wrong event (no order, a delta of nothing, …) */
export function buildPrepChanged(input: PrepChangedInput): PrepChangedEvent {
  const { establishment, pickupDate } = input;
  const refuse = (problem: string, cause?: unknown) =>
    new PrepChangedInputError(establishment.uuid, pickupDate, problem, cause === undefined ? {} : { cause });
  if (input.orders.length === 0) throw refuse('no order is behind the changes');
  if (input.gathered.length === 0) throw refuse('no order event is behind the changes');
  const still = input.items.find((item) => item.from === item.to);
  if (still) throw refuse(`item ${still.sku} does not change (${still.from} → ${still.to})`);
  const items = fitted(input.items.map(({ sku, name, from, to }) => ({ sku, name, from, to })));
  const orders = fitted(
    input.orders.map(({ uuid, reference, change, notes_changed }) => ({
      uuid,
      reference,
      change,
      ...(notes_changed ? { notes_changed } : {}),
    })),
  );
  const event = {
    specversion: '1.0',
    id: prepChangedEventId(
      input.organization.id,
      establishment.uuid,
      pickupDate,
      input.summaryId,
      input.gathered,
    ),
    source: input.source,
    type: PREP_CHANGED_EVENT_TYPE,
    subject: establishment.uuid,
    time: input.time,
    datacontenttype: 'application/json',
    data: {
      // Copied field by field: the public contract carries these and nothing else of what was passed.
      organization: { id: input.organization.id, name: input.organization.name },
      establishment: { uuid: establishment.uuid, name: establishment.name },
      pickup_date: pickupDate,
      summary_id: input.summaryId,
      summary_closed_at: input.summaryClosedAt,
      items: items.kept,
      ...(items.omitted > 0 ? { items_omitted: items.omitted } : {}),
      orders: orders.kept,
      ...(orders.omitted > 0 ? { orders_omitted: orders.omitted } : {}),
    },
  };
  const parsed = PrepChangedEventSchema.safeParse(event);
  if (!parsed.success) throw refuse(`not a valid event: ${parsed.error.message}`, parsed.error);
  return parsed.data;
}

/** The first entries that fit PREP_CHANGED_LIST_MAX_BYTES (at least one), and how many were left out. */
function fitted<Entry>(entries: Entry[]): { kept: Entry[]; omitted: number } {
  let bytes = 0;
  for (const [index, entry] of entries.entries()) {
    bytes += Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (bytes > PREP_CHANGED_LIST_MAX_BYTES && index > 0) {
      return { kept: entries.slice(0, index), omitted: entries.length - index };
    }
  }
  return { kept: entries, omitted: 0 };
}
