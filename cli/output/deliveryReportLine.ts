// One readable line (and log record) per delivery attempt.
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { counted } from '../../shared/text/counted.js';
import type { LogRecord } from '../logging/logger.js';

export function formatDeliveryReportLine(report: DeliveryReport, nowMs: number): string {
  const what = `${report.subscriberId} ← ${report.eventType} ${report.reference}`;
  switch (report.state) {
    case 'delivered':
      return `${what}: delivered (${(latencyMs(report, nowMs) / 1000).toFixed(1)} s after detection)`;
    case 'queued': {
      const inSeconds = Math.max(0, Math.round(((report.nextAttemptAt ?? nowMs) - nowMs) / 1000));
      return `${what}: attempt ${report.attempts} failed, retrying in ${inSeconds} s: ${reasonOf(report)}`;
    }
    case 'dead':
      return `${what}: dead letter after ${counted(report.attempts, 'attempt')}: ${reasonOf(report)}`;
    case 'subscriber_disabled':
      return `${what}: subscriber disabled, nothing more is sent to it: ${reasonOf(report)}`;
  }
}

export function deliveryReportRecord(report: DeliveryReport, nowMs: number): LogRecord {
  return {
    level: report.state === 'delivered' ? 'info' : report.state === 'queued' ? 'warn' : 'error',
    kind: 'delivery',
    message: formatDeliveryReportLine(report, nowMs),
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
