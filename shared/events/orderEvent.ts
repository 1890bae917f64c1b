// The order events of the product's public contract: one CloudEvents 1.0 envelope per observable
// transition of an order.
import * as z from 'zod';
import { describeTypes, sentAlways } from './catalogNotes.js';
import { cloudEventSchema } from './cloudEventEnvelope.js';

export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.completed',
  'order.canceled',
  'order.archived',
  'order.status_changed',
  'order.rescheduled',
  'order.updated',
] as const;
export const OrderEventTypeSchema = z.enum(ORDER_EVENT_TYPES);
export type OrderEventType = z.infer<typeof OrderEventTypeSchema>;
describeTypes(OrderEventTypeSchema, {
  'order.created': 'An order first seen after the baseline: a new order.',
  'order.completed':
    'The order was completed; also sent before order.archived for an order found archived whose completed_at shows a completion not seen.',
  'order.canceled':
    'The order was canceled; also sent before order.archived for an order found archived whose canceled_at shows a cancellation not seen.',
  'order.archived': 'The order was archived.',
  'order.status_changed':
    'Any other move of the status: back to pending, or to a status the API spec does not list.',
  'order.rescheduled':
    'The pickup date or the establishment (or both) changed and the status did not; changes say from what to what.',
  'order.updated':
    "The order's content changed while its status, pickup date and establishment did not: an item's quantity (from or to 0 for a line added or removed), the order's notes or an item line's notes; changes list each.",
});

/** The fields whose movement the diff engine tracks as a transition of the order. */
export const TRACKED_FIELDS = [
  'status',
  'canceled_at',
  'completed_at',
  'pickup_date',
  'establishment',
] as const;

/** A transition's field: the status, a timestamp, the pickup date or the establishment. */
export const FieldChangeSchema = z.object({
  field: z.enum(TRACKED_FIELDS),
  from: z.string().nullable(),
  to: z.string().nullable(),
  // An establishment moves by uuid; its names ride along when known, so a kitchen reads "Side Counter →
  // Main Canteen" rather than two uuids. Additive: absent on other fields and when a name is not known.
  from_name: z.string().optional(),
  to_name: z.string().optional(),
});

/** `order.updated`: the units of one item (by sku) the order holds; 0 for a line added or removed. */
export const ItemsChangeSchema = z.object({
  field: z.literal('items'),
  sku: z.string(),
  name: z.string(),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
});

/** `order.updated`: the order's own notes. */
export const NotesChangeSchema = z.object({
  field: z.literal('notes'),
  from: z.string().nullable(),
  to: z.string().nullable(),
});

/** `order.updated`: the notes of an item line (by its sku; `name` for readers). */
export const ItemNotesChangeSchema = z.object({
  field: z.literal('item_notes'),
  sku: z.string(),
  name: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});

export const ChangeSchema = z.discriminatedUnion('field', [
  FieldChangeSchema,
  ItemsChangeSchema,
  NotesChangeSchema,
  ItemNotesChangeSchema,
]);
export type Change = z.infer<typeof ChangeSchema>;
export type FieldChange = z.infer<typeof FieldChangeSchema>;
export type ItemsChange = z.infer<typeof ItemsChangeSchema>;

/** A transition's field (status, a timestamp, the date or the establishment), not the order's content. */
export function isFieldChange(change: Change): change is FieldChange {
  return (TRACKED_FIELDS as readonly string[]).includes(change.field);
}

/** Money as the API gives it: digits as a string, the currency, and the text to show. */
const MoneySchema = z
  .object({ amount: z.string(), currency: z.string(), formatted: z.string() })
  .describe(
    'Money as the API gives it: digits as a string (e.g. "4.50"), the currency, and the text to show.',
  );

/**
 * An item line of the order. `sku`, `name` and `quantity` since 0.1.0; the rest since the whole order was
 * carried (optional only so that events logged before still read; every new event has them).
 */
export const OrderLineSchema = z.looseObject({
  uuid: z.string().optional(),
  sku: z.string().optional(),
  name: z.string(),
  description: z.string().nullable().optional(),
  price: MoneySchema.optional(),
  quantity: z.number().int(),
  total: MoneySchema.optional(),
  image: z.string().optional(),
  notes: z.string().nullable().optional(),
  fulfilled_quantity: z.number().int().optional(),
  fulfillment_status: z.string().optional(),
  is_menu: z.boolean().optional(),
  /** The line's status value (`pending`, …). */
  status: z.string().optional().describe("The line's status value (pending, …)."),
  created_at: z.string().optional(),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

/**
 * The whole order, in the API's snake_case, normalized (`pickup_date` ISO, status values rather than
 * label/value pairs). The keys of 0.1.0 keep their names and meaning; every field of the spec's Order is
 * there besides (optional only for events logged before), and fields the API adds that the spec does not
 * name are kept as they came.
 */
export const OrderSummarySchema = z.looseObject({
  uuid: z.string(),
  reference: z.string(),
  status: z
    .string()
    .describe('The status value: pending, completed, canceled, archived, or one the API spec does not list.'),
  pickup_date: z.string().describe('YYYY-MM-DD, whichever form the API gave.'),
  establishment: z.object({ uuid: z.string(), name: z.string() }),
  customer: z.looseObject({
    uuid: z.string().optional(),
    name: z.string(),
    class: z.string().nullable(),
    parent: z
      .object({
        uuid: z.string().optional(),
        name: z.string(),
        // Contact details: present only for subscribers that opted in (includeContactDetails).
        email: z.string().nullable().optional().describe('Only for subscribers with includeContactDetails.'),
        phone: z.string().nullable().optional().describe('Only for subscribers with includeContactDetails.'),
      })
      .nullable(),
  }),
  currency: z.string().optional(),
  subtotal: MoneySchema.optional(),
  total: MoneySchema,
  payment_method: z
    .string()
    .describe('The payment method value: cash, card, credit, or one the spec does not list.'),
  notes: z.string().nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  canceled_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
  can_be_cancelled: z.boolean().optional(),
  items: z.array(OrderLineSchema),
  /** Item lines left out, from the end, so that the event fits what carries it (MAX_EVENT_BYTES). */
  items_omitted: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'Item lines left out, from the end, so that the event fits in 128 KiB of JSON; absent when none was.',
    ),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;
// Optional above only so that events recorded before the whole order was carried still read: every event
// recorded since has these (summarizeOrder sets each from a field the API's Order requires).
sentAlways(OrderSummarySchema, [
  'currency',
  'subtotal',
  'notes',
  'created_at',
  'updated_at',
  'canceled_at',
  'completed_at',
  'can_be_cancelled',
]);
sentAlways(OrderSummarySchema.shape.customer, ['uuid']);
sentAlways(OrderSummarySchema.shape.customer.shape.parent.unwrap(), ['uuid']);
sentAlways(OrderLineSchema, [
  'uuid',
  'sku',
  'description',
  'price',
  'total',
  'image',
  'notes',
  'fulfilled_quantity',
  'fulfillment_status',
  'is_menu',
  'status',
  'created_at',
]);

/**
 * The organization the order belongs to. `time_zone` (its IANA zone, from the config) is how its people read
 * the order's timestamps ("Canceled at 10:20, Sun 29 Nov"); optional only so that events recorded before it
 * was carried still read.
 */
export const OrderEventOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  time_zone: z
    .string()
    .optional()
    .describe(
      "The organization's IANA time zone (its config's timeZone), in which its people read the order's timestamps.",
    ),
});
sentAlways(OrderEventOrganizationSchema, ['time_zone']);

export const OrderEventSchema = cloudEventSchema(
  OrderEventTypeSchema,
  z.object({
    // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real event never has it.
    test: z
      .literal(true)
      .optional()
      .describe(
        'Only on a sample meal-notifier send-test sends (its id starts with test-); never on a real event.',
      ),
    organization: OrderEventOrganizationSchema,
    order: OrderSummarySchema,
    changes: z
      .array(ChangeSchema)
      .describe(
        'What moved: every tracked field (status, canceled_at, completed_at, pickup_date, establishment); for order.updated, the content that changed.',
      ),
    // Present, and true, only when the prep summary of the order's establishment and pickup date (or, for
    // a move, of the one it left) was already sent: absent rather than false, so an event that is not
    // late reads exactly as it did before the flag existed.
    after_closing: z
      .literal(true)
      .optional()
      .describe(
        'Present, and true, only when the prep summary of the establishment and pickup date the event is about (or, for a move, the one it left) was already sent; absent, never false, otherwise.',
      ),
  }),
);
export type OrderEvent = z.infer<typeof OrderEventSchema>;
