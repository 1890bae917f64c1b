// zod schemas for the Admin API resources (spec: "Resources and their fields").
// Unknown fields are never rejected, because the spec promises additions without notice: an order, its
// customer and its item lines keep them (the events carry the whole order), the rest strip them.
import * as z from 'zod';
import { normalizePickupDate } from './pickupDate.js';

/** Order statuses the `status` filter accepts. */
export const ORDER_STATUSES = ['pending', 'completed', 'canceled', 'archived'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** Payment method types the `payment_method_type` filter accepts. */
export const PAYMENT_METHODS = ['cash', 'card', 'credit'] as const;
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

export const MoneySchema = z.object({
  amount: z.string().regex(/^-?\d+(?:\.\d+)?$/, 'expected a string of digits'),
  currency: z.string().min(1),
  formatted: z.string(),
});
export type Money = z.infer<typeof MoneySchema>;

/**
 * A label/value pair. `value` stays an open string inside records: a status or payment method the spec
 * does not list yet must still reach the diff engine (as `order.status_changed`), not drop the order.
 */
export const StatusObjectSchema = z.object({ label: z.string(), value: z.string().min(1) });
export type StatusObject = z.infer<typeof StatusObjectSchema>;

/** `pickup_at` in either form, normalized to YYYY-MM-DD. */
export const PickupDateSchema = z.string().transform((text, ctx) => {
  const normalized = normalizePickupDate(text);
  if (normalized === undefined) {
    // The value stays out of the message: messages end up in logs, and a record's values are not for logs.
    ctx.addIssue({ code: 'custom', message: 'neither YYYY-MM-DD nor DD/MM/YY' });
    return z.NEVER;
  }
  return normalized;
});

const Uuid = z.guid();

export const ParentSchema = z.object({
  uuid: Uuid,
  full_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  credit: MoneySchema,
});
export type Parent = z.infer<typeof ParentSchema>;

export const CustomerSchema = z.looseObject({
  uuid: Uuid,
  full_name: z.string(),
  class: z.string().nullable(),
  parent: ParentSchema.nullable(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const EstablishmentSummarySchema = z.object({ uuid: Uuid, name: z.string() });
export type EstablishmentSummary = z.infer<typeof EstablishmentSummarySchema>;

export const OrderItemSchema = z.looseObject({
  uuid: Uuid,
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: MoneySchema,
  quantity: z.number().int().nonnegative(),
  total: MoneySchema,
  image: z.string(),
  notes: z.string().nullable(),
  fulfilled_quantity: z.number().int().nonnegative(),
  fulfillment_status: z.string(),
  is_menu: z.boolean(),
  status: StatusObjectSchema,
  created_at: z.string(),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

export const OrderSchema = z.looseObject({
  uuid: Uuid,
  currency: z.string(),
  reference: z.string().min(1),
  subtotal: MoneySchema,
  total: MoneySchema,
  pickup_at: PickupDateSchema,
  canceled_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  can_be_cancelled: z.boolean(),
  status: StatusObjectSchema,
  payment_method_type: StatusObjectSchema,
  customer: CustomerSchema,
  establishment: EstablishmentSummarySchema,
  items: z.array(OrderItemSchema),
});
/** An order as parsed: `pickup_at` is always YYYY-MM-DD. */
export type Order = z.infer<typeof OrderSchema>;
/** An order as the API sends it (`pickup_at` in either form). */
export type OrderInput = z.input<typeof OrderSchema>;

const ClockTime = z.string().regex(/^\d{2}:\d{2}(?::\d{2})?$/, 'expected HH:MM or HH:MM:SS');

// Loose: fields the spec does not list are kept, so the cache in the state hands them on whole.
export const EstablishmentSchema = z.looseObject({
  uuid: Uuid,
  name: z.string(),
  allowed_order_pickup_time_type: z.string(),
  allowed_order_pickup_time_interval: z.array(ClockTime),
  working_days: z.array(z.number().int().min(1).max(7)),
  order_closing_time: ClockTime,
  menu_closing_time: ClockTime.nullable(),
  daily_order_closure: z.number().int().min(0).max(1),
  status: StatusObjectSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Establishment = z.infer<typeof EstablishmentSchema>;

/** GET /products has no documented shape: records are kept whole, checked only to be objects. */
export const ProductSchema = z.record(z.string(), z.unknown());
export type Product = z.infer<typeof ProductSchema>;
