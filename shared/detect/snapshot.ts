// What we remember of an order between cycles: only the fields whose movement makes an event, and what a
// kitchen cooks from (its item lines and notes), whose change is an `order.updated`.
import * as z from 'zod';
import type { Order } from '../api/schemas.js';

/** An item line as far as a kitchen cares: what, how many, and its notes. */
export const SnapshotLineSchema = z.object({
  uuid: z.string(),
  sku: z.string(),
  name: z.string(),
  quantity: z.number().int().nonnegative(),
  notes: z.string().nullable(),
});
export type SnapshotLine = z.infer<typeof SnapshotLineSchema>;

/** The order's content: its own notes and its item lines, in the API's order. */
export const OrderContentSchema = z.object({
  notes: z.string().nullable(),
  lines: z.array(SnapshotLineSchema),
});
export type OrderContent = z.infer<typeof OrderContentSchema>;

export const SnapshotSchema = z.object({
  orderUuid: z.string(),
  status: z.string(),
  canceledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  pickupDate: z.string(),
  establishmentUuid: z.string(),
  /**
   * `payment_method_type.value` as last written: narrows the look-up of an order that left pending. It may
   * have changed since (it makes no event, so no write), and snapshots written before it was kept lack it.
   */
  paymentMethod: z.string().optional(),
  /**
   * `created_at`, which never changes: with the pickup date it places the order in a listing's order, so a
   * look-up can read the likeliest page first. Absent in snapshots written before it was kept.
   */
  createdAt: z.string().optional(),
  /** `updated_at` of the observation this snapshot records; decides between two sightings in one cycle. */
  updatedAt: z.string(),
  /**
   * The content last seen. Absent in snapshots written before it was remembered: the next sighting learns
   * it silently, so an upgrade announces no change that nobody made.
   */
  content: OrderContentSchema.optional(),
  /** Set once the order was absent from every listing that should hold it; cleared when it reappears. */
  missingSince: z.string().nullable(),
  /** Optimistic concurrency: a write must name the version it replaces (0 for a new order). */
  version: z.number().int().nonnegative(),
  /** When the store may forget the order (epoch ms; DynamoDB's TTL keeps it to the second, rounded up). */
  expiresAt: z.number().int(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** The snapshot fields an observed order determines. */
export function observedState(
  order: Order,
): Omit<Snapshot, 'version' | 'expiresAt' | 'missingSince' | 'content'> & { content: OrderContent } {
  return {
    orderUuid: order.uuid,
    status: order.status.value,
    canceledAt: order.canceled_at,
    completedAt: order.completed_at,
    pickupDate: order.pickup_at,
    establishmentUuid: order.establishment.uuid,
    paymentMethod: order.payment_method_type.value,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    content: contentOf(order),
  };
}

export function contentOf(order: Order): OrderContent {
  return {
    notes: order.notes,
    lines: order.items.map((item) => ({
      uuid: item.uuid,
      sku: item.sku,
      name: item.name,
      quantity: item.quantity,
      notes: item.notes,
    })),
  };
}
