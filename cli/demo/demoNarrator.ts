// What the demo prints: a banner saying what runs where, then one line when the runner detects an event
// and one when the webhook receiver gets it (with both latencies), and a closing summary; written through
// an output sink, which colours it for a terminal and shows the control characters of the data in it.
import type { Order } from '../../shared/api/schemas.js';
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { transitionTime } from '../../shared/detect/transitionTime.js';
import { isOrderEvent, type NotifierEvent } from '../../shared/events/notifierEvent.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { counted } from '../../shared/text/counted.js';
import { dayLabel } from '../../shared/time/dayLabel.js';
import {
  type Activity,
  activityLine,
  eventColumns,
  formatLatency,
  shortType,
} from '../output/activityLine.js';
import type { OutputSink } from '../output/outputSink.js';
import { describeDuration } from '../output/runSummary.js';
import type { Style } from '../output/terminalStyle.js';
import type { ReceivedDelivery } from './demoWebhookReceiver.js';

export interface DemoBanner {
  simulatorUrl: string;
  seed: number;
  organization: string;
  webhookUrl: string;
  statePath: string;
  intervalSeconds: number;
  /** The establishment whose orders close during the demo, and when (HH:MM:SS, the organization's zone). */
  closing?: { establishment: string; at: string };
}

export class DemoNarrator {
  readonly #output: OutputSink;
  readonly #style: Style;
  readonly #clock: () => number;
  readonly #detectedAt = new Map<string, number>();
  readonly #baselined = new Set<string>();
  readonly #byType = new Map<string, number>();
  readonly #detectionLatencies: number[] = [];
  readonly #deliveryLatencies: number[] = [];
  #cycles = 0;
  #failedCycles = 0;
  #delivered = 0;
  #verified = 0;
  #failedAttempts = 0;

  constructor(output: OutputSink, clock: () => number = Date.now) {
    this.#output = output;
    this.#style = output.style;
    this.#clock = clock;
  }

  banner(banner: DemoBanner): void {
    const { bold, dim } = this.#style;
    this.#line(bold('meal-order-notifier demo') + dim(' (no account, network or config needed)'));
    this.#line(
      `  Admin API simulator  ${banner.simulatorUrl}  ${dim(`(${banner.organization}, seed ${banner.seed})`)}`,
    );
    this.#line(
      `  webhook receiver     ${banner.webhookUrl}  ${dim('(verifies Standard Webhooks signatures)')}`,
    );
    this.#line(
      `  runner               polls every ${banner.intervalSeconds} s, state in ${banner.statePath}`,
    );
    this.#line('');
    this.#line(
      dim(
        'The first cycle records the orders already there without a word (the baseline). After it, every new,\n' +
          'completed or canceled order prints twice: when the runner detects it, and when the webhook receiver\n' +
          'gets it. Press Ctrl-C to stop.',
      ),
    );
    if (banner.closing) {
      this.#line(
        dim(
          `${banner.closing.establishment} closes today's orders at ${banner.closing.at}: the runner then sends its prep\n` +
            'summary (what to cook), and any change after it is flagged "after closing".',
        ),
      );
    }
    this.#line('');
  }

  /** `orderOf` looks the order up at the source, for the detection latency. */
  cycle(report: PollReport, orderOf: (uuid: string) => Order | undefined): void {
    const now = this.#clock();
    this.#cycles += 1;
    if (!report.ok) this.#failedCycles += 1;
    const name = report.organization.name;
    if (!this.#baselined.has(report.organization.id) && report.ok && report.outcome === 'polled') {
      this.#baselined.add(report.organization.id);
      this.#line(
        `${this.#time(now)}  ${this.#style.dim(`baseline   ${name}: ${counted(report.ordersSeen, 'order')} recorded silently; watching for changes`)}`,
      );
    }
    for (const event of report.events) {
      // An establishment event's subject is the establishment: no order to look up.
      const order = isOrderEvent(event) ? orderOf(event.subject) : undefined;
      this.#detected(event, order, now);
    }
    for (const failure of report.failures) {
      this.#line(`${this.#time(now)}  ${this.#style.yellow('cycle')}      ${failure}`);
    }
  }

  cycleFailed(organization: string, error: unknown): void {
    this.#failedCycles += 1;
    this.#line(
      `${this.#time(this.#clock())}  ${this.#style.red('failed')}     ${organization}: ${(error as Error)?.message ?? String(error)}`,
    );
  }

  delivery(report: DeliveryReport, received: ReceivedDelivery | undefined): void {
    const now = this.#clock();
    const { green, red, dim } = this.#style;
    const [reference, about] = deliveryColumns(report);
    const line = (activity: Activity, details: string[]) =>
      this.#line(
        `${this.#time(now)}  ${activityLine(this.#style, activity, report.eventType, reference, [...about, ...details])}`,
      );
    if (report.state !== 'delivered') {
      this.#failedAttempts += 1;
      const reason = report.outcome.kind === 'delivered' ? '' : report.outcome.reason;
      line(report.state === 'queued' ? 'retrying' : 'failed', [`attempt ${report.attempts}: ${reason}`]);
      return;
    }
    this.#delivered += 1;
    const detectedAt = this.#detectedAt.get(report.eventId) ?? Date.parse(report.eventTime);
    const latency = Math.max(0, (received?.receivedAt ?? now) - detectedAt);
    this.#deliveryLatencies.push(latency);
    const verified = received?.verified === true;
    if (verified) this.#verified += 1;
    const signature = verified ? green('signature verified') : red('signature NOT verified');
    line('delivered', [signature, dim(`${formatLatency(latency)} after detection`)]);
  }

  stopping(): void {
    this.#line('');
    this.#line(this.#style.dim('Stopping: finishing the cycle and delivery in flight…'));
  }

  summary(durationMs: number, stateRemoved: boolean): void {
    const events = [...this.#byType.values()].reduce((sum, count) => sum + count, 0);
    const types = [...this.#byType.entries()]
      .map(([type, count]) => `${count} ${shortType(type)}`)
      .join(', ');
    const lines = [
      this.#style.bold(`Stopped after ${describeDuration(durationMs)}.`),
      `  cycles     ${this.#cycles} (${this.#failedCycles} failed)`,
      `  detected   ${counted(events, 'event')}${types ? `: ${types}` : ''}`,
      `  delivered  ${this.#delivered} to the webhook, ${this.#verified} with a verified signature, ${counted(this.#failedAttempts, 'failed attempt')}`,
    ];
    if (this.#detectionLatencies.length > 0 || this.#deliveryLatencies.length > 0) {
      lines.push(
        `  latency    detection ${describeLatencies(this.#detectionLatencies)}; delivery ${describeLatencies(this.#deliveryLatencies)}`,
      );
    }
    lines.push(
      stateRemoved
        ? '  The temporary state directory was removed.'
        : '  The temporary state directory is kept.',
    );
    this.#line('');
    for (const line of lines) this.#line(line);
  }

  #detected(event: NotifierEvent, order: Order | undefined, now: number): void {
    this.#detectedAt.set(event.id, now);
    this.#byType.set(event.type, (this.#byType.get(event.type) ?? 0) + 1);
    const happenedAt = transitionTime(event, order);
    let latency = '';
    if (happenedAt !== undefined) {
      const ms = Math.max(0, now - happenedAt);
      this.#detectionLatencies.push(ms);
      const since = event.type === 'establishment.prep_summary' ? 'closing' : 'it happened';
      latency = this.#style.dim(`${formatLatency(ms)} after ${since}`);
    }
    const [reference, details] = eventColumns(event, this.#style);
    this.#line(
      `${this.#time(now)}  ${activityLine(this.#style, 'detected', event.type, reference, [...details, latency])}`,
    );
  }

  #time(ms: number): string {
    return this.#style.dim(new Date(ms).toTimeString().slice(0, 8));
  }

  #line(text: string): void {
    this.#output.line(text);
  }
}

/** What a delivered establishment event is, beside the day it is for. */
const ESTABLISHMENT_DELIVERY: Record<string, string> = {
  'establishment.prep_summary': 'summary',
  'establishment.prep_changed': 'changes',
};

/**
 * A delivery's reference column and first details: an order's reference; for a prep summary or a
 * prep_changed, the establishment and the day it is for, as its detected line reads them.
 */
function deliveryColumns(report: DeliveryReport): [reference: string, details: string[]] {
  const about = /^(.*) (\d{4}-\d{2}-\d{2})$/.exec(report.reference);
  const what = ESTABLISHMENT_DELIVERY[report.eventType];
  if (what === undefined || !about) return [report.reference, []];
  return [about[1] ?? '', [`${what} for ${dayLabel(about[2] ?? '')}`]];
}

function describeLatencies(values: number[]): string {
  if (values.length === 0) return 'n/a';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  return `median ${formatLatency(median)}, max ${formatLatency(sorted.at(-1) ?? 0)}`;
}
