// The local outbox's ledger in memory (DeliveryLedger), with the engine's side of it that a test needs to
// move a delivery along (markDelivered, markFailed, the subscriber status): the same outcomes as the SQLite
// outbox, checked by the one suite both run (deliveryLedgerConformance.ts). `queue` stands for the event
// router of the real store: it logs an event and queues it for the subscribers named.
import type { DeliveryLedger, SubscriberBacklog } from '../../shared/delivery/deliveryLedger.js';
import type {
  Delivery,
  DeliveryOutbox,
  DeliveryStatus,
  FailedAttempt,
} from '../../shared/delivery/deliveryOutbox.js';
import type { DisabledSubscriber, SubscriberStatus } from '../../shared/delivery/subscriberStatus.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';

/** What the ledger's conformance suite drives: the ledger, and the engine's writes to the same outbox. */
export type LedgerOutbox = DeliveryLedger &
  SubscriberStatus &
  Pick<DeliveryOutbox, 'markDelivered' | 'markFailed'>;

interface LoggedEvent {
  sequence: number;
  recordedAt: number;
  sourceTime: number | undefined;
}

export class InMemoryDeliveryLedger implements LedgerOutbox {
  readonly #clock: () => number;
  readonly #events = new Map<string, LoggedEvent>();
  /** By subscriber id, then event id. */
  readonly #deliveries = new Map<string, Map<string, Delivery>>();
  readonly #disabled = new Map<string, DisabledSubscriber>();
  #sequence = 0;

  constructor(options: { clock?: () => number } = {}) {
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Logs the event (once per id, at the clock's time) and queues it for each subscriber not disabled, as
   * a commit routed to them does; an event already logged is not queued again.
   */
  async queue(event: NotifierEvent, subscriberIds: readonly string[], sourceTime?: number): Promise<void> {
    if (this.#events.has(event.id)) return;
    const recordedAt = this.#clock();
    this.#sequence += 1;
    this.#events.set(event.id, { sequence: this.#sequence, recordedAt, sourceTime });
    for (const subscriberId of new Set(subscriberIds)) {
      if (this.#disabled.has(subscriberId) || this.#row(subscriberId, event.id)) continue;
      this.#put({
        subscriberId,
        eventId: event.id,
        status: 'queued',
        attempts: 0,
        nextAttemptAt: recordedAt,
        lastError: null,
        deliveredAt: null,
      });
    }
  }

  async listDeliveries(filter: { status?: DeliveryStatus } = {}): Promise<Delivery[]> {
    return this.#all()
      .filter((delivery) => this.#events.has(delivery.eventId))
      .filter((delivery) => filter.status === undefined || delivery.status === filter.status)
      .sort(
        (a, b) =>
          (this.#events.get(a.eventId)?.sequence ?? 0) - (this.#events.get(b.eventId)?.sequence ?? 0) ||
          byText(a.subscriberId, b.subscriberId),
      )
      .map((delivery) => ({ ...delivery }));
  }

  async deliveriesOf(eventIds: readonly string[]): Promise<Delivery[]> {
    const wanted = new Set(eventIds);
    return this.#all()
      .filter((delivery) => wanted.has(delivery.eventId))
      .sort((a, b) => byText(a.eventId, b.eventId) || byText(a.subscriberId, b.subscriberId))
      .map((delivery) => ({ ...delivery }));
  }

  async backlogs(): Promise<SubscriberBacklog[]> {
    const bySubscriber = new Map<string, SubscriberBacklog>();
    for (const delivery of this.#all()) {
      const logged = this.#events.get(delivery.eventId);
      if (delivery.status !== 'queued' || !logged) continue;
      const changedAt = logged.sourceTime ?? logged.recordedAt;
      const backlog = bySubscriber.get(delivery.subscriberId);
      bySubscriber.set(delivery.subscriberId, {
        subscriberId: delivery.subscriberId,
        queued: (backlog?.queued ?? 0) + 1,
        oldestChangeAt: Math.min(backlog?.oldestChangeAt ?? Number.POSITIVE_INFINITY, changedAt),
      });
    }
    return [...bySubscriber.values()].sort((a, b) => byText(a.subscriberId, b.subscriberId));
  }

  async disabledSubscribers(): Promise<DisabledSubscriber[]> {
    return [...this.#disabled.values()]
      .sort((a, b) => byText(a.subscriberId, b.subscriberId))
      .map((disabled) => ({ ...disabled }));
  }

  async enableSubscriber(subscriberId: string): Promise<boolean> {
    return this.#disabled.delete(subscriberId);
  }

  async requeue(subscriberId: string, eventId: string, nowMs: number): Promise<boolean> {
    if (!this.#events.has(eventId)) return false;
    const row = this.#row(subscriberId, eventId);
    this.#put({
      ...(row ?? { subscriberId, eventId, lastError: null }),
      status: 'queued',
      attempts: 0,
      nextAttemptAt: nowMs,
      deliveredAt: null,
    });
    return true;
  }

  async markDelivered(subscriberId: string, eventId: string, nowMs: number): Promise<boolean> {
    const row = this.#row(subscriberId, eventId);
    if (!row) return false;
    this.#put({ ...row, status: 'delivered', attempts: row.attempts + 1, deliveredAt: nowMs });
    return true;
  }

  async markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): Promise<boolean> {
    const row = this.#row(subscriberId, eventId);
    if (!row) return false;
    this.#put({
      ...row,
      status: failure.dead ? 'dead' : 'queued',
      attempts: failure.attempts,
      nextAttemptAt: failure.nextAttemptAt,
      lastError: failure.error,
    });
    return true;
  }

  async disabled(subscriberId: string): Promise<DisabledSubscriber | undefined> {
    const disabled = this.#disabled.get(subscriberId);
    return disabled && { ...disabled };
  }

  async disableSubscriber(subscriberId: string, reason: string, atMs: number): Promise<DisabledSubscriber> {
    if (!this.#disabled.has(subscriberId))
      this.#disabled.set(subscriberId, { subscriberId, reason, disabledAt: atMs });
    for (const row of this.#deliveries.get(subscriberId)?.values() ?? []) {
      if (row.status === 'queued')
        this.#put({ ...row, status: 'dead', lastError: `subscriber disabled: ${reason}` });
    }
    return { ...(this.#disabled.get(subscriberId) as DisabledSubscriber) };
  }

  #all(): Delivery[] {
    return [...this.#deliveries.values()].flatMap((rows) => [...rows.values()]);
  }

  #row(subscriberId: string, eventId: string): Delivery | undefined {
    return this.#deliveries.get(subscriberId)?.get(eventId);
  }

  #put(delivery: Delivery): void {
    let rows = this.#deliveries.get(delivery.subscriberId);
    if (!rows) {
      rows = new Map();
      this.#deliveries.set(delivery.subscriberId, rows);
    }
    rows.set(delivery.eventId, delivery);
  }
}

/** Text order as SQLite's default (binary) collation has it, for the ASCII ids the suite uses. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
