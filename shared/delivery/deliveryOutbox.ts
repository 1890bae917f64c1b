// The delivery outbox as the local delivery engine needs it: one queue per subscriber of (event, attempts
// made, next attempt time), each outcome recorded before the next send. The SQLite outbox is the adapter.
import * as z from 'zod';
import type { DigestEvent } from '../events/digestEvent.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { SubscriberStatus } from './subscriberStatus.js';

export const DeliveryStatusSchema = z.enum(['queued', 'delivered', 'dead']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

export const DeliverySchema = z.object({
  subscriberId: z.string(),
  eventId: z.string(),
  status: DeliveryStatusSchema,
  /** Attempts made so far. */
  attempts: z.number().int(),
  /** When the next attempt is due (epoch ms); meaningful while queued. */
  nextAttemptAt: z.number(),
  /** The last failure, kept on dead letters and after a later success alike. */
  lastError: z.string().nullable(),
  deliveredAt: z.number().nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** A delivery that is due, with the event it carries. */
export interface DueDelivery extends Delivery {
  organizationId: string;
  /** An event, or a digest of events for this subscriber alone. */
  event: NotifierEvent | DigestEvent;
}

export interface FailedAttempt {
  /** Attempts made, counting the one that just failed. */
  attempts: number;
  nextAttemptAt: number;
  error: string;
  /** No more attempts: keep it as a dead letter. */
  dead: boolean;
}

/** A subscriber with something queued, and when its earliest queued delivery is due. */
export interface QueuedSubscriber {
  subscriberId: string;
  nextAttemptAt: number;
}

export interface DeliveryOutbox extends SubscriberStatus {
  queuedSubscribers(): Promise<QueuedSubscriber[]>;
  /** The subscriber's queued deliveries due at `nowMs`, in the order they are to be sent. */
  dueDeliveries(subscriberId: string, nowMs: number, limit: number): Promise<DueDelivery[]>;
  markDelivered(subscriberId: string, eventId: string, nowMs: number): Promise<boolean>;
  markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): Promise<boolean>;
}
