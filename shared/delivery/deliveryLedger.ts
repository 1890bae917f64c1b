// The local outbox as the operator's commands read and change it (status, deliveries, events, replay, the
// runner's tally): every delivery and where it stands, how far behind each subscriber is, who is disabled,
// and the two changes by hand, enabling a subscriber again and queuing an event again. The delivery engine
// needs none of it (DeliveryOutbox is its port). The SQLite outbox is the adapter; on AWS the queues and
// their dead letters answer the same questions (shared/operations/).
import type { Delivery, DeliveryStatus } from './deliveryOutbox.js';
import type { DisabledSubscriber } from './subscriberStatus.js';

/** How much a subscriber has queued, and since when it is behind. */
export interface SubscriberBacklog {
  subscriberId: string;
  queued: number;
  /**
   * The oldest change among its queued deliveries (epoch ms): an event's source time, else when it was
   * logged; a catch-up's first change.
   */
  oldestChangeAt: number;
}

export interface DeliveryLedger {
  /** Every delivery (or those of one status), in the order their events were logged, then by subscriber. */
  listDeliveries(filter?: { status?: DeliveryStatus }): Promise<Delivery[]>;
  /** Each of these events' deliveries, one per subscriber it was queued for: by event id, then subscriber. */
  deliveriesOf(eventIds: readonly string[]): Promise<Delivery[]>;
  /** Each subscriber with something queued, by subscriber id. */
  backlogs(): Promise<SubscriberBacklog[]>;
  /** The disabled subscribers, by subscriber id. */
  disabledSubscribers(): Promise<DisabledSubscriber[]>;
  /** The subscribers waiting on a person (deliveries kept), by subscriber id; `reason` says what to do. */
  pausedSubscribers?(): Promise<DisabledSubscriber[]>;
  /** Lets events reach the subscriber again; true when it was disabled. */
  enableSubscriber(subscriberId: string): Promise<boolean>;
  /**
   * Queues the event for the subscriber again from scratch (replay): a dead letter, a delivered event, or
   * one the subscriber never had, due at `nowMs`. The last error is kept for the record. False when the
   * event is not in the log.
   */
  requeue(subscriberId: string, eventId: string, nowMs: number): Promise<boolean>;
}
