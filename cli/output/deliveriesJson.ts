// `meal-notifier deliveries --json` locally: one object per outbox delivery, its times in ISO 8601 like
// every JSON output of the CLI.
import * as z from 'zod';
import { type Delivery, DeliveryStatusSchema } from '../../shared/delivery/deliveryOutbox.js';
import { IsoTimeSchema, isoTime, isoTimeOrNull } from '../../shared/time/isoTime.js';

export const DeliveryJsonSchema = z.object({
  subscriberId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  reference: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  /** When the next attempt is due, while queued; null otherwise. */
  nextAttemptAt: IsoTimeSchema.nullable(),
  lastError: z.string().nullable(),
  deliveredAt: IsoTimeSchema.nullable(),
});
export type DeliveryJson = z.infer<typeof DeliveryJsonSchema>;

export function deliveryJson(
  delivery: Delivery,
  event: { eventType: string; reference: string },
): DeliveryJson {
  return {
    subscriberId: delivery.subscriberId,
    eventId: delivery.eventId,
    eventType: event.eventType,
    reference: event.reference,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'queued' ? isoTime(delivery.nextAttemptAt) : null,
    lastError: delivery.lastError,
    deliveredAt: isoTimeOrNull(delivery.deliveredAt),
  };
}
