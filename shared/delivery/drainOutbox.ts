// Delivers what the outbox holds that is due: each subscriber's deliveries in order (so Slack pacing and
// per-receiver ordering hold), subscribers side by side. Every outcome is recorded before the next send,
// so a crash re-sends at most the one in flight, under the same event id.

import type { DeliveryOutbox, DueDelivery } from './deliveryOutbox.js';
import type { DeliveryOutcome, EventSender } from './deliveryOutcome.js';
import { nextRetryDelay } from './retrySchedule.js';

export interface DeliveryReport {
  subscriberId: string;
  eventId: string;
  eventType: string;
  reference: string;
  outcome: DeliveryOutcome;
  /** Attempts made, this one included. */
  attempts: number;
  /** Where the delivery stands now. */
  state: 'delivered' | 'queued' | 'dead' | 'subscriber_disabled';
  /** Set while queued. */
  nextAttemptAt?: number;
  /** When the event was recorded, for detection-to-delivery latency. */
  eventTime: string;
}

export interface DrainDependencies {
  outbox: DeliveryOutbox;
  /** By subscriber id; a delivery for a subscriber not here is dead-lettered (it left the config). */
  senders: ReadonlyMap<string, EventSender>;
  clock: () => number;
  random?: () => number;
  /** Told of each attempt as it is recorded. */
  onDelivery?: (report: DeliveryReport) => void;
  /** Deliveries fetched per round. @default 100 */
  batchSize?: number;
}

/** Delivers everything due now, round after round, until nothing due is left. */
export async function drainOutbox(deps: DrainDependencies): Promise<DeliveryReport[]> {
  const reports: DeliveryReport[] = [];
  for (;;) {
    const due = await deps.outbox.dueDeliveries(deps.clock(), deps.batchSize ?? 100);
    if (due.length === 0) return reports;
    const bySubscriber = groupBySubscriber(due);
    await Promise.all(
      [...bySubscriber.entries()].map(async ([subscriberId, deliveries]) => {
        for (const delivery of deliveries) {
          const report = await deliverOne(deps, subscriberId, delivery);
          reports.push(report);
          deps.onDelivery?.(report);
          // Everything else queued for a gone subscriber was dead-lettered with it.
          if (report.state === 'subscriber_disabled') break;
        }
      }),
    );
  }
}

async function deliverOne(
  deps: DrainDependencies,
  subscriberId: string,
  delivery: DueDelivery,
): Promise<DeliveryReport> {
  const sender = deps.senders.get(subscriberId);
  const outcome: DeliveryOutcome = sender
    ? await sender.send(delivery.event)
    : { kind: 'dead', reason: 'subscriber is no longer in the config' };
  const now = deps.clock();
  const attempts = delivery.attempts + 1;
  const base = {
    subscriberId,
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    reference: delivery.event.data.order.reference,
    outcome,
    attempts,
    eventTime: delivery.event.time,
  };
  switch (outcome.kind) {
    case 'delivered':
      await deps.outbox.markDelivered(subscriberId, delivery.eventId, now);
      return { ...base, state: 'delivered' };
    case 'gone':
      await deps.outbox.disableSubscriber(subscriberId, outcome.reason, now);
      return { ...base, state: 'subscriber_disabled' };
    case 'dead':
      await deps.outbox.markFailed(subscriberId, delivery.eventId, {
        attempts,
        nextAttemptAt: now,
        error: outcome.reason,
        dead: true,
      });
      return { ...base, state: 'dead' };
    case 'retry': {
      const delay = nextRetryDelay(attempts, outcome.retryAfterMs, deps.random);
      const dead = delay === undefined;
      const nextAttemptAt = now + (delay ?? 0);
      await deps.outbox.markFailed(subscriberId, delivery.eventId, {
        attempts,
        nextAttemptAt,
        error: dead ? `${outcome.reason} (retry schedule spent)` : outcome.reason,
        dead,
      });
      return dead ? { ...base, state: 'dead' } : { ...base, state: 'queued', nextAttemptAt };
    }
  }
}

function groupBySubscriber(due: DueDelivery[]): Map<string, DueDelivery[]> {
  const groups = new Map<string, DueDelivery[]>();
  for (const delivery of due)
    groups.set(delivery.subscriberId, [...(groups.get(delivery.subscriberId) ?? []), delivery]);
  return groups;
}
