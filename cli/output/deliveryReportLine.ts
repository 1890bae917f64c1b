// One readable line (and log record) per delivery attempt, in the demo's columns: `delivered  created
// NS-1064  to office  120 ms after detection`; and one per catch-up composed: `folded  catch_up  …`.
import type { CatchUpReport, DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import { CATCH_UP_EVENT_TYPE } from '../../shared/events/catchUpEvent.js';
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
      if (report.outcome.kind === 'paused') {
        return line(
          'retrying',
          `subscriber paused, its deliveries kept: ${reasonOf(report)}: ${report.outcome.action}; tried again in ${inSeconds} s`,
        );
      }
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

/** The stale deliveries a catch-up now stands for: sent as that one message, never one by one. */
export function catchUpReportRecord(report: CatchUpReport, style: Style = PLAIN): LogRecord {
  const absorbed = report.absorbed === undefined ? '' : ', with the catch-up it replaces';
  return {
    level: 'info',
    kind: 'delivery',
    message: activityLine(style, 'folded', CATCH_UP_EVENT_TYPE, 'catch-up', [
      `to ${report.subscriberId}`,
      `${counted(report.folded.length, 'stale event')} in one message${absorbed} (${counted(report.events, 'event')} in all)`,
    ]),
    fields: {
      subscriberId: report.subscriberId,
      organizationId: report.organizationId,
      eventId: report.catchUpId,
      eventType: CATCH_UP_EVENT_TYPE,
      state: 'folded',
      folded: report.folded,
      ...(report.absorbed === undefined ? {} : { absorbed: report.absorbed }),
      events: report.events,
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
