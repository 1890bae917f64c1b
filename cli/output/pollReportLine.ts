// One status line (and log record) per organization and cycle: requests used against the token's budget,
// orders seen, events, and where the organization's deliveries stand.
import type { PollReport } from '../../shared/poll/pollOrganization.js';
import type { LogRecord } from '../logging/logger.js';

/** The organization's deliveries still in the outbox: waiting for an attempt, or given up on. */
export interface OutboxCounts {
  queued: number;
  dead: number;
}

export function formatPollReportLine(
  report: PollReport,
  budgetPerMinute: number,
  outbox: OutboxCounts = { queued: 0, dead: 0 },
): string {
  const name = report.organization.name;
  const deliveries = describeOutbox(outbox);
  if (report.outcome === 'skipped') {
    return `${name}: skipped (${report.reason ?? 'no reason given'})${deliveries ? `, ${deliveries}` : ''}`;
  }
  if (report.outcome === 'deferred') {
    // Not a failure: the token's minute is spent, and the pace brings the cycle back when it frees.
    return `${name}: waiting for request budget, next cycle in ${secondsUntil(report)} s${deliveries ? `, ${deliveries}` : ''}`;
  }
  const events = report.events.length === 1 ? '1 event' : `${report.events.length} events`;
  const { detect, resolve, sweep } = report.requestsFor;
  const spent = [
    `${detect} pending`,
    ...(resolve > 0 ? [`${resolve} look-up`] : []),
    ...(sweep > 0 ? [`${sweep} sweep`] : []),
  ];
  const parts = [
    `${report.requests} requests (${spent.join(', ')}; ${report.budgetRemaining}/${budgetPerMinute} left this minute)`,
    `${report.ordersSeen} orders seen`,
    events,
  ];
  // Only when there is something to say, so a healthy quiet cycle stays one short line.
  if (deliveries) parts.push(deliveries);
  if (report.deferred.length > 0) parts.push(`deferred for budget: ${report.deferred.join(', ')}`);
  if (report.conflicts > 0) parts.push(`${report.conflicts} left to another run`);
  if (!report.ok) parts.push(`${report.failures.length} failed`);
  parts.push(`next in ${secondsUntil(report)} s`);
  return `${name}: ${parts.join(', ')}`;
}

/** From the cycle's end, roughly: the line is printed as the cycle ends. */
function secondsUntil(report: PollReport): number {
  return Math.max(0, Math.round((report.nextPollAt - Date.now()) / 1000));
}

/** The cycle as a log record, with the failures as their own records after it. */
export function pollReportRecords(
  report: PollReport,
  budgetPerMinute: number,
  outbox: OutboxCounts,
): LogRecord[] {
  const organization = { organization: report.organization.name, organizationId: report.organization.id };
  const cycle: LogRecord = {
    level: report.ok ? 'info' : 'warn',
    kind: 'cycle',
    message: formatPollReportLine(report, budgetPerMinute, outbox),
    fields: {
      ...organization,
      outcome: report.outcome,
      ...(report.reason === undefined ? {} : { reason: report.reason }),
      ok: report.ok,
      requests: report.requests,
      requestsFor: report.requestsFor,
      vanished: report.vanished.length,
      nextPollAt: new Date(report.nextPollAt).toISOString(),
      budgetRemaining: report.budgetRemaining,
      budgetPerMinute,
      ordersSeen: report.ordersSeen,
      events: report.events.length,
      deliveriesQueued: outbox.queued,
      deliveriesDead: outbox.dead,
      deferred: report.deferred,
      conflicts: report.conflicts,
    },
  };
  // A skipped cycle's one failure is its reason, already on the status line.
  const said = report.outcome === 'skipped' ? `${report.organization.name}: ${report.reason}` : undefined;
  const failures = report.failures
    .filter((failure) => failure !== said)
    .map(
      (failure): LogRecord => ({
        level: 'warn',
        kind: 'failure',
        message: `  ${failure}`,
        fields: { ...organization, error: failure },
      }),
    );
  return [cycle, ...failures];
}

function describeOutbox({ queued, dead }: OutboxCounts): string {
  const parts: string[] = [];
  if (queued > 0) parts.push(`${queued} ${queued === 1 ? 'delivery' : 'deliveries'} queued`);
  if (dead > 0) parts.push(`${dead} dead ${dead === 1 ? 'letter' : 'letters'}`);
  return parts.join(', ');
}
