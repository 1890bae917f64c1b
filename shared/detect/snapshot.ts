// What we remember of an order between cycles: only the fields whose movement makes an event.
import * as z from 'zod';
import type { Order } from '../api/schemas.js';

export const SnapshotSchema = z.object({
  orderUuid: z.string(),
  status: z.string(),
  canceledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  pickupDate: z.string(),
  establishmentUuid: z.string(),
  /** `updated_at` of the observation this snapshot records; decides between two sightings in one cycle. */
  updatedAt: z.string(),
  /** Set once the order was absent from every listing that should hold it; cleared when it reappears. */
  missingSince: z.string().nullable(),
  /** Optimistic concurrency: a write must name the version it replaces (0 for a new order). */
  version: z.number().int().nonnegative(),
  /** When the store may forget the order (epoch ms; DynamoDB's TTL keeps it to the second, rounded up). */
  expiresAt: z.number().int(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** The snapshot fields an observed order determines. */
export function observedState(order: Order): Omit<Snapshot, 'version' | 'expiresAt' | 'missingSince'> {
  return {
    orderUuid: order.uuid,
    status: order.status.value,
    canceledAt: order.canceled_at,
    completedAt: order.completed_at,
    pickupDate: order.pickup_at,
    establishmentUuid: order.establishment.uuid,
    updatedAt: order.updated_at,
  };
}
