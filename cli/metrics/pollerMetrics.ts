// The local runner's Prometheus metrics, in a registry of their own (never prom-client's global one). The
// counts are the run's tally, the one the summary on exit prints, read at each scrape; queue depths, last
// successes and the health verdict come from the status report `meal-notifier status` prints, read then
// too. Only the latencies are observed here as they happen: a distribution is not a tally.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { TOKEN_REJECTED } from '../../shared/contracts/tokenRejected.js';
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { assessHealth, type Health, overdueOf } from '../../shared/operations/healthVerdict.js';
import type { StatusReport } from '../../shared/operations/statusReport.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import type { RunTally } from '../runtime/runTally.js';

export interface PollerMetricsSources {
  run: RunTally;
  /** The status report of this runner's config, read afresh. */
  status: () => Promise<StatusReport>;
  /** Requests per minute the budget allows itself per token (the limit). */
  budgetPerMinute: number;
  clock?: () => number;
}

const PREFIX = 'meal_notifier_';

/** Seconds from a change at the source to its detection: a cycle's gap and more. */
const DETECTION_BUCKETS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
/** Seconds from detection to delivery: a send, or retries over minutes. */
const DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];

export class PollerMetrics {
  readonly registry = new Registry();
  readonly #sources: PollerMetricsSources;
  readonly #clock: () => number;

  readonly #cycles = this.#counter('poll_cycles_total', 'Poll cycles run, by organization.', [
    'organization',
  ]);
  readonly #failedCycles = this.#counter(
    'poll_cycle_failures_total',
    'Poll cycles that failed (a listing could not be fetched, or the cycle threw), by organization.',
    ['organization'],
  );
  readonly #requests = this.#counter(
    'api_requests_total',
    'Admin API requests the poll cycles made, by organization.',
    ['organization'],
  );
  readonly #listingProblems = this.#counter(
    'listing_problems_total',
    'Problems met in listings fetched without error (skipped records, inconsistent walks), by organization.',
    ['organization'],
  );
  readonly #events = this.#counter('events_total', 'Order events recorded, by organization and type.', [
    'organization',
    'type',
  ]);
  readonly #deliveries = this.#counter(
    'deliveries_total',
    'Delivery attempts, by subscriber and outcome (delivered, retry, dead, subscriber_disabled).',
    ['subscriber', 'outcome'],
  );
  readonly #budget = this.#gauge(
    'api_budget_requests_per_minute',
    "Requests per minute each token's budget allows itself (api.requestsPerMinute).",
    [],
  );
  readonly #budgetRemaining = this.#gauge(
    'api_budget_remaining_requests',
    "Requests the organization's token had left in its minute after the organization's last cycle.",
    ['organization'],
  );
  readonly #ordersSeen = this.#gauge(
    'orders_seen',
    "Orders the organization's last cycle saw in its window.",
    ['organization'],
  );
  readonly #lastSuccess = this.#gauge(
    'last_successful_poll_timestamp_seconds',
    "When the organization's last successful cycle started (Unix time); absent before the first.",
    ['organization'],
  );
  readonly #overdue = this.#gauge(
    'poll_overdue',
    '1 when the organization is overdue (no successful cycle within the allowance of its poll interval: the rule of /healthz and of the AWS "not polled" alarm), else 0.',
    ['organization'],
  );
  readonly #tokenRejected = this.#gauge(
    'token_rejected',
    `1 when the API rejected the organization's token (401 or 403) in its last cycle: "${TOKEN_REJECTED}"; it is tried again every few minutes. Else 0.`,
    ['organization'],
  );
  readonly #queued = this.#gauge(
    'delivery_queue_depth',
    'Deliveries waiting or being retried in the outbox, by subscriber.',
    ['subscriber'],
  );
  readonly #dead = this.#gauge('dead_letters', 'Deliveries given up on, by subscriber.', ['subscriber']);
  readonly #healthy = this.#gauge(
    'healthy',
    '1 when /healthz answers 200 (no organization overdue or with its token rejected, nothing dead), else 0.',
    [],
  );
  readonly #detectionLatency = new Histogram({
    name: `${PREFIX}detection_latency_seconds`,
    help: 'From a change at the Admin API (the order’s created_at, completed_at, canceled_at or updated_at) to the cycle that detected it.',
    labelNames: ['organization'],
    buckets: DETECTION_BUCKETS,
    registers: [this.registry],
  });
  readonly #deliveryLatency = new Histogram({
    name: `${PREFIX}delivery_latency_seconds`,
    help: 'From detection (the event’s time) to its delivery, by subscriber.',
    labelNames: ['subscriber'],
    buckets: DELIVERY_BUCKETS,
    registers: [this.registry],
  });

  constructor(sources: PollerMetricsSources) {
    this.#sources = sources;
    this.#clock = sources.clock ?? Date.now;
    this.#budget.set(sources.budgetPerMinute);
    // The process's own (CPU, memory, event loop lag), under the names Node.js dashboards expect.
    collectDefaultMetrics({ register: this.registry });
  }

  /** A cycle's detection latencies; its counts are the run tally's. */
  observeCycle(report: PollReport): void {
    for (const event of report.events) {
      const changedAt = report.sourceTimes[event.id];
      if (changedAt === undefined) continue;
      const seconds = Math.max(0, Date.parse(event.time) - changedAt) / 1000;
      this.#detectionLatency.observe({ organization: report.organization.name }, seconds);
    }
  }

  /** A delivery's latency, when it was delivered; its counts are the run tally's. */
  observeDelivery(report: DeliveryReport): void {
    if (report.state !== 'delivered') return;
    const seconds = Math.max(0, this.#clock() - Date.parse(report.eventTime)) / 1000;
    this.#deliveryLatency.observe({ subscriber: report.subscriberId }, seconds);
  }

  /** The verdict /healthz answers with, from the state as `status` reads it now. */
  async health(): Promise<Health> {
    return assessHealth(await this.#sources.status(), this.#clock());
  }

  /** Every metric in the Prometheus text format, its values read now. */
  async render(): Promise<string> {
    const report = await this.#sources.status();
    this.#readTally();
    this.#readStatus(report);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #readTally(): void {
    const { run } = this.#sources;
    for (const counter of [this.#cycles, this.#failedCycles, this.#requests, this.#listingProblems]) {
      counter.reset();
    }
    this.#events.reset();
    this.#deliveries.reset();
    this.#budgetRemaining.reset();
    this.#ordersSeen.reset();
    for (const tally of run.organizations()) {
      const organization = { organization: tally.name };
      this.#cycles.inc(organization, tally.cycles);
      this.#failedCycles.inc(organization, tally.failedCycles);
      this.#requests.inc(organization, tally.requests);
      this.#listingProblems.inc(organization, tally.listingProblems);
      for (const [type, count] of Object.entries(tally.eventsByType)) {
        this.#events.inc({ ...organization, type }, count);
      }
      if (tally.budgetRemaining !== null) this.#budgetRemaining.set(organization, tally.budgetRemaining);
      if (tally.ordersSeen !== null) this.#ordersSeen.set(organization, tally.ordersSeen);
    }
    for (const { id, outcomes } of run.subscribers()) {
      for (const [state, count] of Object.entries(outcomes)) {
        this.#deliveries.inc(
          { subscriber: id, outcome: OUTCOME_LABEL[state as DeliveryReport['state']] },
          count,
        );
      }
    }
  }

  #readStatus(report: StatusReport): void {
    this.#lastSuccess.reset();
    this.#overdue.reset();
    this.#tokenRejected.reset();
    this.#queued.reset();
    this.#dead.reset();
    for (const organization of report.organizations) {
      this.#overdue.set(
        { organization: organization.name },
        overdueOf(organization, this.#clock()).overdue ? 1 : 0,
      );
      this.#tokenRejected.set(
        { organization: organization.name },
        organization.tokenRejectedSince === null ? 0 : 1,
      );
      if (organization.lastSuccessAt === null) continue;
      this.#lastSuccess.set(
        { organization: organization.name },
        Date.parse(organization.lastSuccessAt) / 1000,
      );
    }
    for (const subscriber of report.subscribers) {
      if (subscriber.queued !== null) this.#queued.set({ subscriber: subscriber.id }, subscriber.queued);
      if (subscriber.dead !== null) this.#dead.set({ subscriber: subscriber.id }, subscriber.dead);
    }
    this.#healthy.set(assessHealth(report, this.#clock()).healthy ? 1 : 0);
  }

  #counter<T extends string>(name: string, help: string, labelNames: T[]): Counter<T> {
    return new Counter({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] });
  }

  #gauge<T extends string>(name: string, help: string, labelNames: T[]): Gauge<T> {
    return new Gauge({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] });
  }
}

/** A delivery left `queued` after an attempt is being retried. */
const OUTCOME_LABEL: Record<DeliveryReport['state'], string> = {
  delivered: 'delivered',
  queued: 'retry',
  dead: 'dead',
  subscriber_disabled: 'subscriber_disabled',
};
