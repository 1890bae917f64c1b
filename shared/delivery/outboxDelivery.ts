// The local delivery engine over the outbox. Each subscriber's queue is drained on its own, in order, so a
// slow, paced, hanging or failing receiver never holds back another beyond its own attempt. Every outcome
// is decided by decideDelivery, as on AWS, and recorded before that subscriber's next send, so a crash
// re-sends at most the one in flight, under the same event id. Stopping lets each attempt in flight finish
// and be recorded, and starts no other.
//
// A person is not buried under a backlog (docs/delivery.md, "Calm after an outage"): before each batch, a subscriber
// with a `catchUpAfter` has its queued order events that went stale (their change happened longer ago than
// that, by the API's timestamps) folded into one catch-up per organization, absorbing any catch-up of its
// still queued: each folded delivery is recorded as delivered by the catch-up, never dropped. And when such
// a subscriber's receiver answers again, what waits out a backoff is due at once, so that what went stale
// meanwhile goes in one catch-up rather than in one per retry that falls due later.
import { buildCatchUp } from '../events/buildCatchUp.js';
import { type DigestEvent, isDigest } from '../events/digestEvent.js';
import { eventReference, isOrderEvent } from '../events/notifierEvent.js';
import { isStale } from '../events/staleness.js';
import { attemptDelivery } from './attemptDelivery.js';
import { type DeliveryDecision, decideDelivery } from './deliveryDecision.js';
import {
  CATCH_UP_CANDIDATES_BATCH,
  type CatchUpCandidates,
  type DeliveryOutbox,
  type DueDelivery,
  type QueuedEvent,
} from './deliveryOutbox.js';
import type { DeliveryOutcome, EventSender } from './deliveryOutcome.js';
import { partLabel } from './digest/queueDueDigests.js';
import { digestPeriodLabel } from './email/digestEmail.js';
import { DeliveryRecordError } from './errors.js';

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

/** One catch-up composed for a subscriber, and the deliveries it stands for. */
export interface CatchUpReport {
  subscriberId: string;
  organizationId: string;
  catchUpId: string;
  /** The events whose deliveries it folded now. */
  folded: string[];
  /** A catch-up of the subscriber's, still queued, that it replaces (its events are counted in this one). */
  absorbed?: string;
  /** The events it stands for in all. */
  events: number;
}

/** Who gets catch-ups, the organizations' time zones their times are shown in, and their highlight words. */
export interface CatchUpSettings {
  /** The subscriber's threshold (ms); undefined for one that gets every event however late. */
  catchUpAfterMs(subscriberId: string): number | undefined;
  timeZoneOf?(organizationId: string): string | undefined;
  /** The organization's words that flag a note a catch-up lists. @default the default words */
  highlightWordsOf?(organizationId: string): readonly string[];
}

/** Where the engine gets a subscriber's sender; see SubscriberSenders. */
export interface SenderSource {
  /** Undefined when the subscriber is no longer configured; a throw when it cannot be built now. */
  senderFor(subscriberId: string): Promise<EventSender | undefined>;
}

export interface OutboxDeliveryDependencies {
  outbox: DeliveryOutbox;
  senders: SenderSource;
  clock: () => number;
  /** The retry schedule's jitter. @default Math.random */
  random?: () => number;
  /** Told of each attempt once its outcome is recorded. */
  onDelivery?: (report: DeliveryReport) => void;
  /** Told when a subscriber's queue could not be read or an outcome recorded; that subscriber pauses, the others go on. */
  onError?: (error: unknown) => void;
  /** Deliveries fetched at a time per subscriber. @default 50 */
  batchSize?: number;
  /** Folds stale deliveries into catch-ups; without it (replay), every delivery is sent however late. */
  catchUps?: CatchUpSettings;
  /** Told of each catch-up composed, once it is recorded. */
  onCatchUp?: (report: CatchUpReport) => void;
}

/** New events are queued by poll cycles at any moment; a second is the longest they wait unless woken. */
const MAX_IDLE_MS = 1_000;
const MIN_IDLE_MS = 20;
/** After a store failure, how long that subscriber waits before trying again, doubling up to the most. */
const FIRST_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 30_000;

interface HeldOutcome {
  delivery: DueDelivery;
  decision: DeliveryDecision;
  attempts: number;
  atMs: number;
  report: DeliveryReport;
}

export class OutboxDelivery {
  readonly #deps: OutboxDeliveryDependencies;
  readonly #busy = new Map<string, Promise<void>>();
  readonly #held = new Map<string, HeldOutcome>();
  readonly #paused = new Map<string, { until: number; ms: number }>();
  /** Subscribers paused until a person fixes them (a 'paused' outcome): when each is probed next. */
  readonly #waitingOnPerson = new Map<string, number>();
  #wakeIdle: (() => void) | undefined;
  #woken = false;

  constructor(deps: OutboxDeliveryDependencies) {
    this.#deps = deps;
  }

  /** Looks at the outbox again at once: new events were queued, or a subscriber finished. */
  wake(): void {
    this.#woken = true;
    this.#wakeIdle?.();
  }

  /**
   * Delivers everything due now, every subscriber on its own, until none has anything due (for a run that
   * must end). A subscriber that finishes, or a wake(), is looked at again at once, so one still busy
   * holds back no other.
   */
  async deliverDue(stop?: AbortSignal): Promise<DeliveryReport[]> {
    const reports: DeliveryReport[] = [];
    await this.#loop(stop, reports);
    return reports;
  }

  /** Delivers whatever falls due until `stop`; then waits for the attempts in flight to be recorded. */
  async run(stop: AbortSignal): Promise<void> {
    await this.#loop(stop, undefined);
  }

  /** Without `reports`, runs until stopped; with them, until nothing is due or busy. */
  async #loop(stop: AbortSignal | undefined, reports: DeliveryReport[] | undefined): Promise<void> {
    while (!stop?.aborted) {
      let waitMs = MAX_IDLE_MS;
      try {
        const due = await this.#subscribersDue();
        for (const subscriberId of due.ready) {
          const worker = this.#work(subscriberId, stop, reports).finally(() => {
            this.#busy.delete(subscriberId);
            this.wake();
          });
          this.#busy.set(subscriberId, worker);
        }
        if (reports && this.#busy.size === 0) break;
        // A run that must end waits for its workers only, never for a retry due later.
        if (due.nextAt !== undefined && !reports) waitMs = Math.min(waitMs, due.nextAt - this.#deps.clock());
      } catch (error) {
        this.#deps.onError?.(error);
        if (reports && this.#busy.size === 0) break;
      }
      await this.#idle(Math.max(MIN_IDLE_MS, waitMs), stop);
    }
    await Promise.all(this.#busy.values());
  }

  /** When the next delivery falls due (a paused subscriber's pause counted), or undefined when none is queued. */
  async nextDueAt(): Promise<number | undefined> {
    const due = await this.#subscribersDue();
    return due.ready.length > 0 ? this.#deps.clock() : due.nextAt;
  }

  /** Subscribers with something due now and no worker, and when the next one falls due. */
  async #subscribersDue(): Promise<{ ready: string[]; nextAt: number | undefined }> {
    const now = this.#deps.clock();
    const ready: string[] = [];
    let nextAt: number | undefined;
    for (const { subscriberId, nextAttemptAt } of await this.#deps.outbox.queuedSubscribers()) {
      if (this.#busy.has(subscriberId)) continue;
      const at = Math.max(
        nextAttemptAt,
        this.#paused.get(subscriberId)?.until ?? nextAttemptAt,
        this.#waitingOnPerson.get(subscriberId) ?? nextAttemptAt,
      );
      if (at <= now) ready.push(subscriberId);
      else nextAt = Math.min(nextAt ?? at, at);
    }
    return { ready, nextAt };
  }

  /** Drains one subscriber; a store failure pauses that subscriber alone, and is reported. */
  async #work(
    subscriberId: string,
    stop: AbortSignal | undefined,
    reports?: DeliveryReport[],
  ): Promise<void> {
    const tell = (report: DeliveryReport) => {
      reports?.push(report);
      this.#deps.onDelivery?.(report);
    };
    try {
      await this.#drain(subscriberId, stop, tell);
      this.#paused.delete(subscriberId);
    } catch (error) {
      const ms = Math.min(MAX_PAUSE_MS, (this.#paused.get(subscriberId)?.ms ?? FIRST_PAUSE_MS / 2) * 2);
      this.#paused.set(subscriberId, { until: this.#deps.clock() + ms, ms });
      this.#deps.onError?.(error);
    }
  }

  async #drain(
    subscriberId: string,
    stop: AbortSignal | undefined,
    tell: (report: DeliveryReport) => void,
  ): Promise<void> {
    const held = this.#held.get(subscriberId);
    if (held) {
      await this.#record(held);
      this.#held.delete(subscriberId);
      tell(held.report);
    }
    const batchSize = this.#deps.batchSize ?? 50;
    for (;;) {
      if (stop?.aborted) return;
      await this.#foldStale(subscriberId);
      const due = await this.#deps.outbox.dueDeliveries(subscriberId, this.#deps.clock(), batchSize);
      if (due.length === 0) return;
      for (const delivery of due) {
        if (stop?.aborted) return;
        const report = await this.#deliverOne(delivery);
        tell(report);
        if (report.state === 'delivered') this.#waitingOnPerson.delete(subscriberId);
        // Everything else queued for a gone subscriber was dead-lettered with it.
        if (report.state === 'subscriber_disabled') return;
        // A subscriber waiting on a person is tried again at the probe, not once per queued delivery.
        if (report.outcome.kind === 'paused') {
          this.#waitingOnPerson.set(subscriberId, report.nextAttemptAt ?? this.#deps.clock());
          return;
        }
      }
    }
  }

  /**
   * Folds the subscriber's stale deliveries into a catch-up per organization (see the head of this file),
   * a batch at a time (CATCH_UP_CANDIDATES_BATCH): each batch's catch-up absorbs the one before it, so the
   * person still gets one, and each batch is folded in one pass over it.
   */
  async #foldStale(subscriberId: string): Promise<void> {
    const settings = this.#deps.catchUps;
    const thresholdMs = settings?.catchUpAfterMs(subscriberId);
    if (settings === undefined || thresholdMs === undefined) return;
    const now = this.#deps.clock();
    for (;;) {
      const candidates = await this.#deps.outbox.catchUpCandidates(subscriberId, now - thresholdMs);
      const folded = await this.#foldBatch(subscriberId, candidates, thresholdMs, now);
      // A batch that came short was the last; one that folded nothing would come back the same.
      if (candidates.stale.length < CATCH_UP_CANDIDATES_BATCH || folded === 0) return;
    }
  }

  /**
   * One batch of candidates folded, by organization. The catch-up is due when the earliest of what it
   * stands for was: a receiver in backoff is not hurried. @returns how many deliveries it folded
   */
  async #foldBatch(
    subscriberId: string,
    candidates: CatchUpCandidates,
    thresholdMs: number,
    now: number,
  ): Promise<number> {
    const settings = this.#deps.catchUps;
    if (settings === undefined) return 0;
    const byOrganization = new Map<string, QueuedEvent[]>();
    for (const queued of candidates.stale) {
      if (!isStale(queued.event, queued.sourceTime, now, thresholdMs)) continue;
      const group = byOrganization.get(queued.organizationId);
      if (group === undefined) byOrganization.set(queued.organizationId, [queued]);
      else group.push(queued);
    }
    let foldedCount = 0;
    for (const [organizationId, queued] of byOrganization) {
      const absorbing = candidates.catchUps.find(
        (catchUp) =>
          catchUp.organizationId === organizationId &&
          catchUp.event.data.catch_up_after === Math.round(thresholdMs / 1000),
      );
      const first = queued[0];
      if (first === undefined) continue;
      const catchUp = buildCatchUp({
        organization: {
          id: organizationId,
          name: first.event.data.organization.name,
          timeZone: settings.timeZoneOf?.(organizationId),
          highlightWords: settings.highlightWordsOf?.(organizationId),
        },
        source: first.event.source,
        catchUpAfterMs: thresholdMs,
        nowMs: now,
        subscriberId,
        events: queued.flatMap(({ event, sourceTime }) =>
          isOrderEvent(event) ? [{ event, sourceTime }] : [],
        ),
        absorbing: absorbing?.event,
      });
      const folded = queued.map(({ eventId }) => eventId);
      // A loop, not Math.min(...): a spread of a whole batch's arguments is what overflows the stack.
      let nextAttemptAt = absorbing?.nextAttemptAt ?? Number.POSITIVE_INFINITY;
      for (const entry of queued) nextAttemptAt = Math.min(nextAttemptAt, entry.nextAttemptAt);
      foldedCount += await this.#deps.outbox.foldIntoCatchUp(
        subscriberId,
        organizationId,
        catchUp,
        absorbing ? [...folded, absorbing.eventId] : folded,
        { atMs: now, nextAttemptAt },
      );
      this.#deps.onCatchUp?.({
        subscriberId,
        organizationId,
        catchUpId: catchUp.id,
        folded,
        ...(absorbing ? { absorbed: absorbing.eventId } : {}),
        events: catchUp.data.events,
      });
    }
    return foldedCount;
  }

  async #deliverOne(delivery: DueDelivery): Promise<DeliveryReport> {
    const { senders, random } = this.#deps;
    const outcome = await attemptDelivery(() => senders.senderFor(delivery.subscriberId), delivery.event);
    const attempts = delivery.attempts + 1;
    const decision = decideDelivery(outcome, attempts, random);
    const atMs = this.#deps.clock();
    const held: HeldOutcome = {
      delivery,
      decision,
      attempts,
      atMs,
      report: reportOf(delivery, outcome, attempts, decision, atMs),
    };
    try {
      await this.#record(held);
    } catch (error) {
      this.#held.set(delivery.subscriberId, held);
      throw new DeliveryRecordError(delivery.subscriberId, delivery.eventId, error);
    }
    return held.report;
  }

  async #record({ delivery, decision, attempts, atMs }: HeldOutcome): Promise<void> {
    const { outbox } = this.#deps;
    const { subscriberId, eventId } = delivery;
    switch (decision.kind) {
      case 'delivered':
        await outbox.markDelivered(subscriberId, eventId, atMs);
        await outbox.resumeSubscriber?.(subscriberId);
        if (this.#deps.catchUps?.catchUpAfterMs(subscriberId) !== undefined) {
          await outbox.resumeBackedOff(subscriberId, atMs);
        }
        return;
      case 'gone':
        await outbox.disableSubscriber(subscriberId, decision.reason, atMs);
        return;
      case 'paused':
        // Kept, its attempts not counted: the schedule is for receivers that fail, not for one waiting on a person.
        await outbox.markFailed(subscriberId, eventId, {
          attempts: delivery.attempts,
          nextAttemptAt: atMs + decision.delayMs,
          error: `${decision.reason}: ${decision.action}`,
          dead: false,
        });
        await outbox.pauseSubscriber?.(subscriberId, `${decision.reason}: ${decision.action}`, atMs);
        return;
      case 'dead':
        await outbox.markFailed(subscriberId, eventId, {
          attempts,
          nextAttemptAt: atMs,
          error: decision.reason,
          dead: true,
        });
        return;
      case 'retry':
        await outbox.markFailed(subscriberId, eventId, {
          attempts,
          nextAttemptAt: atMs + decision.delayMs,
          error: decision.reason,
          dead: false,
        });
        return;
    }
  }

  /** Waits `ms`, or less when woken or stopped. */
  async #idle(ms: number, stop: AbortSignal | undefined): Promise<void> {
    if (this.#woken || stop?.aborted) {
      this.#woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop?.removeEventListener('abort', done);
        this.#wakeIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      stop?.addEventListener('abort', done, { once: true });
      this.#wakeIdle = done;
    });
    this.#woken = false;
  }
}

/** " part 2 of 4" for a part of a split digest, so the report tells its parts apart. */
function partSuffixOf(digest: DigestEvent): string {
  const { part } = partLabel(digest);
  return part === undefined ? '' : ` ${part}`;
}

function reportOf(
  delivery: DueDelivery,
  outcome: DeliveryOutcome,
  attempts: number,
  decision: DeliveryDecision,
  atMs: number,
): DeliveryReport {
  const base = {
    subscriberId: delivery.subscriberId,
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    reference: isDigest(delivery.event)
      ? `digest ${digestPeriodLabel(delivery.event)}${partSuffixOf(delivery.event)}`
      : eventReference(delivery.event),
    outcome,
    attempts,
    eventTime: delivery.event.time,
  };
  switch (decision.kind) {
    case 'delivered':
      return { ...base, state: 'delivered' };
    case 'gone':
      return { ...base, state: 'subscriber_disabled' };
    case 'dead':
      return { ...base, state: 'dead' };
    case 'retry':
    case 'paused':
      return { ...base, state: 'queued', nextAttemptAt: atMs + decision.delayMs };
  }
}
