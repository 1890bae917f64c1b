// The product's public contract: one CloudEvents 1.0 envelope per observable transition of an order.
import * as z from 'zod';

export const EVENT_TYPES = [
  'order.created',
  'order.completed',
  'order.canceled',
  'order.archived',
  'order.status_changed',
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

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
  items: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

export const OrderEventSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1),
  source: z.string().min(1),
  type: EventTypeSchema,
  subject: z.string().min(1),
  time: z.iso.datetime({ offset: true }),
  datacontenttype: z.literal('application/json'),
  data: z.object({
    // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real event never has it.
    test: z.literal(true).optional(),
    organization: z.object({ id: z.string(), name: z.string() }),
    order: OrderSummarySchema,
    changes: z.array(ChangeSchema),
  }),
});
export type OrderEvent = z.infer<typeof OrderEventSchema>;
