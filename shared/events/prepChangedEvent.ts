// The amendment to a prep summary of the product's public contract: what changed, after the summary of one
// establishment's pickup date was sent, in what that kitchen must prepare, and the orders behind it. At
// most one per establishment and date per cycle; about no single order, so it has its own envelope type.
import * as z from 'zod';
import { describeTypes } from './catalogNotes.js';
import { cloudEventSchema } from './cloudEventEnvelope.js';

export const PREP_CHANGED_EVENT_TYPE = 'establishment.prep_changed';

/** What an order did to the kitchen's count. */
export const PREP_CHANGES = ['created', 'canceled', 'restored', 'updated', 'moved_in', 'moved_out'] as const;
export type PrepChange = (typeof PREP_CHANGES)[number];

export const PrepChangedItemSchema = z.object({
  sku: z.string(),
  name: z.string(),
  /** Units the kitchen last heard of: the summary's, or the last prep_changed's. */
  from: z.number().int().nonnegative(),
  /** Units now. */
  to: z.number().int().nonnegative(),
});
export type PrepChangedItem = z.infer<typeof PrepChangedItemSchema>;

export const PrepChangedOrderSchema = z.object({
  uuid: z.string(),
  reference: z.string(),
  /**
   * `created`: a new order for that day; `canceled`: one the kitchen counted is canceled; `restored`: one
   * canceled before counts again; `updated`: its items or notes changed; `moved_in`/`moved_out`: it was
   * rescheduled to or away from this establishment and day.
   */
  change: z.enum(PREP_CHANGES),
  /** Present, and true, when the order's notes or an item line's notes changed: read the order's event. */
  notes_changed: z.literal(true).optional(),
});
export type PrepChangedOrder = z.infer<typeof PrepChangedOrderSchema>;

export const PrepChangedDataSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  establishment: z.object({ uuid: z.string(), name: z.string() }),
  pickup_date: z.iso.date(),
  /** The id of the `establishment.prep_summary` this amends. */
  summary_id: z.string().min(1),
  /** That summary's closing time, with the establishment's UTC offset: "since the 11:00 summary". */
  summary_closed_at: z.iso.datetime({ offset: true }),
  /** Items whose units changed, by name then sku; empty when only notes changed. */
  items: z.array(PrepChangedItemSchema),
  /** Item deltas left out so that the event fits what carries it (most are never cut). */
  items_omitted: z.number().int().positive().optional(),
  /** The orders behind the change, by reference then uuid. */
  orders: z.array(PrepChangedOrderSchema).min(1),
  /** Orders left out so that the event fits what carries it. */
  orders_omitted: z.number().int().positive().optional(),
  // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real one never has it.
  test: z.literal(true).optional(),
});
export type PrepChangedData = z.infer<typeof PrepChangedDataSchema>;

const PrepChangedTypeSchema = z.literal(PREP_CHANGED_EVENT_TYPE);
describeTypes(PrepChangedTypeSchema, {
  [PREP_CHANGED_EVENT_TYPE]:
    'What changed, after its prep summary, in what one establishment must prepare for one pickup date: item deltas and the orders behind them, at most one per cycle; subject is the establishment uuid.',
});

export const PrepChangedEventSchema = cloudEventSchema(PrepChangedTypeSchema, PrepChangedDataSchema);
/** `subject` is the establishment's uuid. */
export type PrepChangedEvent = z.infer<typeof PrepChangedEventSchema>;
