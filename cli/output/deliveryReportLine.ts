// One readable line (and log record) per delivery attempt, in the demo's columns: `delivered  created
// NS-1064  to office  120 ms after detection`.
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { counted } from '../../shared/text/counted.js';
import type { LogRecord } from '../logging/logger.js';
import { type Activity, activityLine, formatLatency } from './activityLine.js';
import { PLAIN, type Style } from './terminalStyle.js';

export function formatDeliveryReportLine(
  report: DeliveryReport,
  nowMs: number,
  style: Style = PLAIN,
): string {
  const line = (activity: Activity, detail: string) =>
    activityLine(style, activity, report.eventType, report.reference, [`to ${report.subscriberId}`, detail]);
  switch (report.state) {
    case 'delivered':
      return line('delivered', style.dim(`${formatLatency(latencyMs(report, nowMs))} after detection`));
    case 'queued': {
      const inSeconds = Math.max(0, Math.round(((report.nextAttemptAt ?? nowMs) - nowMs) / 1000));
      return line(
        'retrying',
        `attempt ${report.attempts} failed, next in ${inSeconds} s: ${reasonOf(report)}`,
      );
    }
    case 'dead':
      return line('failed', `dead letter after ${counted(report.attempts, 'attempt')}: ${reasonOf(report)}`);
    case 'subscriber_disabled':
      return line('failed', `subscriber disabled, nothing more is sent to it: ${reasonOf(report)}`);
  }
}

export function deliveryReportRecord(report: DeliveryReport, nowMs: number, style: Style = PLAIN): LogRecord {
  return {
    level: report.state === 'delivered' ? 'info' : report.state === 'queued' ? 'warn' : 'error',
    kind: 'delivery',
    message: formatDeliveryReportLine(report, nowMs, style),
    fields: {
      subscriberId: report.subscriberId,
      eventId: report.eventId,
      eventType: report.eventType,
      reference: report.reference,
      state: report.state,
      attempts: report.attempts,
      latencyMs: latencyMs(report, nowMs),
      ...(report.nextAttemptAt === undefined
        ? {}
        : { nextAttemptAt: new Date(report.nextAttemptAt).toISOString() }),
      ...(report.outcome.kind === 'delivered' ? {} : { reason: report.outcome.reason }),
    },
  };
}

/** From detection (the event's time) to this attempt's outcome. */
function latencyMs(report: DeliveryReport, nowMs: number): number {
  return Math.max(0, nowMs - Date.parse(report.eventTime));
}

function reasonOf(report: DeliveryReport): string {
  return report.outcome.kind === 'delivered' ? 'delivered' : report.outcome.reason;
}
