// One readable status line per organization and cycle.
import type { PollReport } from '../../shared/poll/pollOrganization.js';

export function formatPollReportLine(report: PollReport, budgetPerMinute: number): string {
  const name = report.organization.name;
  if (report.outcome === 'skipped') return `${name}: skipped (${report.reason ?? 'no reason given'})`;
  const events = report.events.length === 1 ? '1 event' : `${report.events.length} events`;
  const parts = [
    `${report.requests} requests (${report.budgetRemaining}/${budgetPerMinute} left this minute)`,
    `${report.ordersSeen} orders seen`,
    events,
  ];
  if (report.deferred.length > 0) parts.push(`deferred for budget: ${report.deferred.join(', ')}`);
  if (report.conflicts > 0) parts.push(`${report.conflicts} left to another run`);
  if (!report.ok) parts.push(`${report.failures.length} failed`);
  return `${name}: ${parts.join(', ')}`;
}
