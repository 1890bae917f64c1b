// How the poll command tells what happens: each new event as a CloudEvent JSON line where --events sends
// it (data, in either log format), and a log record per event, per cycle (with the organization's queued
// and dead deliveries; a skip only when it is not the same as the last), per failure and per delivery
// attempt. The run's tally counts each cycle and delivery; the metrics, when served, observe their
// latencies.
import { DeliveryRecordError, DigestNotQueuedError } from '../../shared/delivery/errors.js';
import type { HighlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import type { CatchUpReport, DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { eventForSubscriber } from '../../shared/events/orderSummary.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import type { Logger } from '../logging/logger.js';
import { cleanupFailureRecord } from '../output/cycleFailureRecord.js';
import { catchUpReportRecord, deliveryReportRecord } from '../output/deliveryReportLine.js';
import { detectedEventRecord } from '../output/detectedEventLine.js';
import { leaseTakenOverRecord } from '../output/leaseTakenOverLine.js';
import { pollReportRecords } from '../output/pollReportLine.js';
import { PLAIN, type Style } from '../output/terminalStyle.js';
import type { OutboxTally } from '../runtime/outboxTally.js';
import type { RunTally } from '../runtime/runTally.js';
import { SkipNotices } from './skipNotices.js';

/** What observes latencies as they happen (PollerMetrics): counts are the run tally's. */
export interface LatencyObserver {
  observeCycle(report: PollReport): void;
  observeDelivery(report: DeliveryReport): void;
}

export interface PollReporterOptions {
  logger: Logger;
  /** One CloudEvent per call, for --events to write as a JSON line. */
  writeEvent: (event: unknown) => void;
  /** Colour for the readable lines; plain unless they go to a terminal. */
  style?: Style;
  outbox: OutboxTally;
  budgetPerMinute: number;
  /** Counts for the summary on exit, when the run has one. */
  run?: RunTally;
  /** The runner's /metrics, when served. */
  latencies?: LatencyObserver;
  /** Each organization's words, which mark an update's new note. @default the defaults for all */
  highlightWords?: HighlightWordsOf;
  clock?: () => number;
}

export class PollReporter {
  readonly #options: PollReporterOptions;
  readonly #clock: () => number;
  readonly #style: Style;
  readonly #skips = new SkipNotices();

  constructor(options: PollReporterOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#style = options.style ?? PLAIN;
  }

  async cycle(report: PollReport): Promise<void> {
    const { logger, writeEvent, outbox, budgetPerMinute, run } = this.#options;
    outbox.remember(
      report.organization.id,
      report.events.map((event) => event.id),
    );
    for (const event of report.events) {
      // --events is nobody's opted-in subscriber: contact details stay out.
      writeEvent(eventForSubscriber(event, false));
      const words = this.#options.highlightWords?.(event.data.organization.id);
      logger.log(detectedEventRecord(event, this.#style, words));
    }
    const takenOver = leaseTakenOverRecord(report);
    if (takenOver) logger.log(takenOver);
    if (this.#skips.worthTelling(report)) {
      const counts = await outbox.countsFor(report.organization.id);
      for (const record of pollReportRecords(report, budgetPerMinute, counts)) logger.log(record);
    }
    run?.recordCycle(report);
    this.#options.latencies?.observeCycle(report);
  }

  /** A step after a cycle failed (the budget or the lease not given back, …): the cycle's outcome stands. */
  cleanupFailure(failure: CycleCleanupError): void {
    this.#options.logger.log(cleanupFailureRecord(failure));
  }

  /** A subscriber's queue could not be read or an outcome recorded: that subscriber waits a little. */
  deliveryError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#options.logger.log({
      level: 'error',
      kind: 'failure',
      // A digest not queued pauses nobody's delivery: only that digest waits for the next look.
      message: error instanceof DigestNotQueuedError ? message : `delivery paused: ${message}`,
      fields: {
        error: message,
        ...(error instanceof DeliveryRecordError || error instanceof DigestNotQueuedError
          ? { subscriberId: error.subscriberId, eventId: error.eventId }
          : {}),
      },
    });
  }

  /** Another live runner delivers this state file's outbox, so this one does not (said once). */
  deliveryStandby(holder: string | undefined): void {
    this.#options.logger.log({
      level: 'warn',
      kind: 'lifecycle',
      message: `another run (${holder ?? 'unknown'}) delivers this state file's outbox; this one leaves delivery to it`,
      fields: { event: 'delivery_standby', holder: holder ?? null },
    });
  }

  /** Stale deliveries folded into a catch-up. */
  catchUp(report: CatchUpReport): void {
    this.#options.logger.log(catchUpReportRecord(report, this.#style));
  }

  delivery(report: DeliveryReport): void {
    this.#options.logger.log(deliveryReportRecord(report, this.#clock(), this.#style));
    const { run, outbox, latencies } = this.#options;
    latencies?.observeDelivery(report);
    if (!run) return;
    // The lookup reads the state file at once (better-sqlite3 is synchronous); only the count waits.
    void outbox
      .organizationOf(report.eventId)
      .then((organizationId) => run.recordDelivery(organizationId, report));
  }
}
