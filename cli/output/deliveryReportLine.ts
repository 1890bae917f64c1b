// One readable line per delivery attempt.
import type { DeliveryReport } from '../../shared/delivery/drainOutbox.js';

export function formatDeliveryReportLine(report: DeliveryReport, nowMs: number): string {
  const what = `${report.subscriberId} ← ${report.eventType} ${report.reference}`;
  const latency = Math.max(0, nowMs - Date.parse(report.eventTime));
  switch (report.state) {
    case 'delivered':
      return `${what}: delivered (${(latency / 1000).toFixed(1)} s after detection)`;
    case 'queued': {
      const inSeconds = Math.max(0, Math.round(((report.nextAttemptAt ?? nowMs) - nowMs) / 1000));
      return `${what}: attempt ${report.attempts} failed, retrying in ${inSeconds} s: ${reasonOf(report)}`;
    }
    case 'dead':
      return `${what}: dead letter after ${report.attempts} attempt(s): ${reasonOf(report)}`;
    case 'subscriber_disabled':
      return `${what}: subscriber disabled, nothing more is sent to it: ${reasonOf(report)}`;
  }
}

function reasonOf(report: DeliveryReport): string {
  return report.outcome.kind === 'delivered' ? 'delivered' : report.outcome.reason;
}
