// The order events of the product's public contract: one CloudEvents 1.0 envelope per observable
// transition of an order.
import * as z from 'zod';
import { cloudEventSchema } from './cloudEventEnvelope.js';

export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.completed',
  'order.canceled',
  'order.archived',
  'order.status_changed',
  'order.rescheduled',
] as const;
export const OrderEventTypeSchema = z.enum(ORDER_EVENT_TYPES);
export type OrderEventType = z.infer<typeof OrderEventTypeSchema>;

/** The fields whose movement the diff engine tracks. */
export const TRACKED_FIELDS = [
  'status',
  'canceled_at',
  'completed_at',
  'pickup_date',
  'establishment',
] as const;

export const ChangeSchema = z.object({
  field: z.enum(TRACKED_FIELDS),
  from: z.string().nullable(),
  to: z.string().nullable(),
  // An establishment moves by uuid; its names ride along when known, so a kitchen reads "Side Counter →
  // Main Canteen" rather than two uuids. Additive: absent on other fields and when a name is not known.
  from_name: z.string().optional(),
  to_name: z.string().optional(),
});
export type Change = z.infer<typeof ChangeSchema>;

export const OrderSummarySchema = z.object({
  uuid: z.string(),
  reference: z.string(),
  status: z.string(),
  pickup_date: z.string(),
  establishment: z.object({ uuid: z.string(), name: z.string() }),
  customer: z.object({
    name: z.string(),
    class: z.string().nullable(),
    parent: z
      .object({
        name: z.string(),
        // Contact details: present only for subscribers that opted in (includeContactDetails).
        email: z.string().nullable().optional(),
        phone: z.string().nullable().optional(),
      })
      .nullable(),
  }),
  total: z.object({ amount: z.string(), currency: z.string(), formatted: z.string() }),
  payment_method: z.string(),
  // `sku` is always written now; optional only so that events logged before it was added still read.
  items: z.array(z.object({ sku: z.string().optional(), name: z.string(), quantity: z.number().int() })),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

export const OrderEventSchema = cloudEventSchema(
  OrderEventTypeSchema,
  z.object({
    // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real event never has it.
    test: z.literal(true).optional(),
    organization: z.object({ id: z.string(), name: z.string() }),
    order: OrderSummarySchema,
    changes: z.array(ChangeSchema),
    // Present, and true, only when the prep summary of the order's establishment and pickup date (or, for
    // a move, of the one it left) was already sent: absent rather than false, so an event that is not
    // late reads exactly as it did before the flag existed.
    after_closing: z.literal(true).optional(),
  }),
);
export type OrderEvent = z.infer<typeof OrderEventSchema>;
