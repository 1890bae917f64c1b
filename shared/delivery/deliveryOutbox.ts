// The delivery outbox as the delivery use case needs it; the SQLite state store is the local adapter.
import type { DueDelivery, FailedAttempt } from '../store/sqlite/sqliteOutbox.js';

export type { DueDelivery, FailedAttempt };

export interface DeliveryOutbox {
  dueDeliveries(nowMs: number, limit: number): Promise<DueDelivery[]>;
  markDelivered(subscriberId: string, eventId: string, nowMs: number): Promise<boolean>;
  markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): Promise<boolean>;
  disableSubscriber(subscriberId: string, reason: string, nowMs: number): Promise<void>;
  nextDeliveryDueAt(): Promise<number | undefined>;
}
