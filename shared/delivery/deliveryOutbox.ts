// The delivery outbox as the local delivery engine needs it: one queue per subscriber of (event, attempts
// made, next attempt time), each outcome recorded before the next send, and the deliveries whose events went
// stale folded into a catch-up. The SQLite outbox is the adapter.
import * as z from 'zod';
import type { CatchUpEvent } from '../events/catchUpEvent.js';
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
  /** Set when it was delivered by a catch-up instead (its event had gone stale): that catch-up's event id. */
  foldedInto: z.string().optional(),
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

/** A queued delivery that may have gone stale (catchUpCandidates). */
export interface QueuedEvent {
  eventId: string;
  organizationId: string;
  event: NotifierEvent;
  /** When its change happened at the source (epoch ms), when the log has it. */
  sourceTime: number | undefined;
  nextAttemptAt: number;
}

/**
 * The most stale candidates one read returns: after a long outage a subscriber may owe tens of thousands,
 * read and folded a batch at a time, each batch's catch-up absorbed by the next.
 */
export const CATCH_UP_CANDIDATES_BATCH = 1_000;

/** What may be folded into a subscriber's catch-up now. */
export interface CatchUpCandidates {
  /**
   * Its queued deliveries of order events whose change happened before the cut-off (by the source time,
   * else by when the event was logged), in the order logged, the oldest CATCH_UP_CANDIDATES_BATCH: the
   * caller judges each with isStale, folds them, and reads again while a batch came full.
   */
  stale: QueuedEvent[];
  /** Its catch-ups still queued (not delivered yet), which a new one absorbs. */
  catchUps: (QueuedEvent & { event: CatchUpEvent })[];
}

export interface DeliveryOutbox extends SubscriberStatus {
  queuedSubscribers(): Promise<QueuedSubscriber[]>;
  catchUpCandidates(subscriberId: string, changedBeforeMs: number): Promise<CatchUpCandidates>;
  /**
   * Makes the subscriber's deliveries waiting out a retry's backoff due at `nowMs`: its receiver answered
   * again. @returns how many
   */
  resumeBackedOff(subscriberId: string, nowMs: number): Promise<number>;
  /**
   * In one transaction: logs the catch-up and queues it for the subscriber at `nextAttemptAt`, and marks
   * the subscriber's queued deliveries of `folded` (events, and catch-ups it absorbs) delivered at `atMs`,
   * by the catch-up. Each event id stays delivered exactly once: folded, never dropped.
   * @returns how many deliveries were folded
   */
  foldIntoCatchUp(
    subscriberId: string,
    organizationId: string,
    catchUp: CatchUpEvent,
    folded: readonly string[],
    timing: { atMs: number; nextAttemptAt: number },
  ): Promise<number>;
  /** The subscriber's queued deliveries due at `nowMs`, in the order they are to be sent. */
  dueDeliveries(subscriberId: string, nowMs: number, limit: number): Promise<DueDelivery[]>;
  markDelivered(subscriberId: string, eventId: string, nowMs: number): Promise<boolean>;
  markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): Promise<boolean>;
  /**
   * Records that the subscriber waits on a person (a 'paused' outcome: a new token, an invitation to the
   * channel), for status and /healthz; its deliveries stay queued. Adapters without it say nothing of it.
   */
  pauseSubscriber?(subscriberId: string, reason: string, atMs: number): Promise<void>;
  /** The subscriber answered again: no longer paused. */
  resumeSubscriber?(subscriberId: string): Promise<void>;
}
