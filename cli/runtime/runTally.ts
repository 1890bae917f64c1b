// What one run of the long-running runner did, per organization and per subscriber: the summary it prints
// on exit and the counters of its /metrics both read it.
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import type { PollReport } from '../../shared/poll/pollReport.js';

export interface OrganizationTally {
  id: string;
  name: string;
  cycles: number;
  /** Cycles that did not poll every planned listing (a failure, or budget exhausted). */
  failedCycles: number;
  events: number;
  /** Events recorded, by type. */
  eventsByType: Record<string, number>;
  /** Admin API requests the cycles made. */
  requests: number;
  /** Orders the last cycle saw; null before the first. */
  ordersSeen: number | null;
  /** Requests the token had left in its minute after the last cycle; null before the first. */
  budgetRemaining: number | null;
  /** Problems met in listings fetched without error: skipped records, inconsistent walks. */
  listingProblems: number;
  /** Deliveries that succeeded during this run. */
  delivered: number;
  /** Attempts that failed during this run (each retried later, or given up on). */
  failedAttempts: number;
}

export interface SubscriberTally {
  id: string;
  /** Delivery attempts, by where each left the delivery. */
  outcomes: Record<DeliveryReport['state'], number>;
}

export class RunTally {
  readonly startedAt: number;
  readonly #byId = new Map<string, OrganizationTally>();
  readonly #subscribers = new Map<string, SubscriberTally>();

  constructor(organizations: ReadonlyArray<{ id: string; name: string }>, startedAt: number) {
    this.startedAt = startedAt;
    for (const { id, name } of organizations) {
      this.#byId.set(id, {
        id,
        name,
        cycles: 0,
        failedCycles: 0,
        events: 0,
        eventsByType: {},
        requests: 0,
        ordersSeen: null,
        budgetRemaining: null,
        listingProblems: 0,
        delivered: 0,
        failedAttempts: 0,
      });
    }
  }

  recordCycle(report: PollReport): void {
    const tally = this.#byId.get(report.organization.id);
    if (!tally) return;
    tally.cycles += 1;
    if (!report.ok) tally.failedCycles += 1;
    tally.events += report.events.length;
    for (const event of report.events)
      tally.eventsByType[event.type] = (tally.eventsByType[event.type] ?? 0) + 1;
    tally.requests += report.requests;
    // A cycle skipped for another run's lease saw nothing: it says nothing about the orders or the budget.
    if (report.outcome !== 'skipped') {
      tally.ordersSeen = report.ordersSeen;
      tally.budgetRemaining = report.budgetRemaining;
    }
    tally.listingProblems += report.problems.length;
  }

  /** A cycle that threw before it could report. */
  recordCycleError(organizationId: string): void {
    const tally = this.#byId.get(organizationId);
    if (!tally) return;
    tally.cycles += 1;
    tally.failedCycles += 1;
  }

  /**
   * Counted for the subscriber always; for the organization only when known (`organizationId` is undefined
   * for an event already pruned from the log).
   */
  recordDelivery(organizationId: string | undefined, report: DeliveryReport): void {
    let subscriber = this.#subscribers.get(report.subscriberId);
    if (!subscriber) {
      subscriber = {
        id: report.subscriberId,
        outcomes: { delivered: 0, queued: 0, dead: 0, subscriber_disabled: 0 },
      };
      this.#subscribers.set(report.subscriberId, subscriber);
    }
    subscriber.outcomes[report.state] += 1;
    const tally = organizationId === undefined ? undefined : this.#byId.get(organizationId);
    if (!tally) return;
    if (report.state === 'delivered') tally.delivered += 1;
    else tally.failedAttempts += 1;
  }

  organizations(): OrganizationTally[] {
    return [...this.#byId.values()].map((tally) => ({ ...tally, eventsByType: { ...tally.eventsByType } }));
  }

  /** Subscribers with at least one delivery attempt in this run. */
  subscribers(): SubscriberTally[] {
    return [...this.#subscribers.values()].map((tally) => ({ ...tally, outcomes: { ...tally.outcomes } }));
  }
}
