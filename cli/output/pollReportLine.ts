// One status line (and log record) per organization and cycle: requests used against the token's budget,
// orders seen, events, where the organization's deliveries stand, and what was wrong with its listings,
// each problem a warning of its own after the line.
import { countListingProblems, describeListingProblem } from '../../shared/api/listingProblem.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { counted } from '../../shared/text/counted.js';
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
  if (report.leaseLost) {
    // Its reason is the whole story: the lease, who took it, and that nothing more was written.
    return `${name}: ${report.reason ?? 'lease lost during the cycle'}${deliveries ? `, ${deliveries}` : ''}`;
  }
  if (report.outcome === 'skipped') {
    return `${name}: skipped (${report.reason ?? 'no reason given'})${deliveries ? `, ${deliveries}` : ''}`;
  }
  if (report.outcome === 'deferred') {
    // Not a failure: the token's minute is spent, and the pace brings the cycle back when it frees.
    return `${name}: waiting for request budget, next cycle in ${secondsUntil(report)} s${deliveries ? `, ${deliveries}` : ''}`;
  }
  if (report.apiUnreachable) {
    // Nothing got an answer: the budget and what was left undone would only mislead. The failure follows.
    const parts = [
      'could not reach the API',
      ...(deliveries ? [deliveries] : []),
      `next in ${secondsUntil(report)} s`,
    ];
    return `${name}: ${parts.join(', ')}`;
  }
  if (report.tokenRejected) {
    // Only a new token cures it: the budget and what was left undone would only mislead. The failure line
    // that follows says what to fix; the retry is slow on purpose.
    const parts = [
      'token rejected',
      ...(deliveries ? [deliveries] : []),
      `tried again in ${secondsUntil(report)} s`,
    ];
    return `${name}: ${parts.join(', ')}`;
  }
  const events = counted(report.events.length, 'event');
  const { detect, resolve, sweep, establishments = 0 } = report.requestsFor;
  // What each count was spent on, named before it ("pending 2, look-up 1"): a label, so it never has to
  // agree with its number.
  const spent = [
    `pending ${detect}`,
    ...(resolve > 0 ? [`look-up ${resolve}`] : []),
    ...(sweep > 0 ? [`sweep ${sweep}`] : []),
    ...(establishments > 0 ? [`establishments ${establishments}`] : []),
  ];
  const parts = [
    `${counted(report.requests, 'request')} (${spent.join(', ')}; ${report.budgetRemaining ?? '?'}/${budgetPerMinute} left this minute)`,
    `${counted(report.ordersSeen, 'order')} seen`,
    events,
  ];
  // Only when there is something to say, so a healthy quiet cycle stays one short line.
  if (deliveries) parts.push(deliveries);
  if (report.deferred.length > 0) parts.push(`deferred for budget: ${report.deferred.join(', ')}`);
  if (report.conflicts > 0) parts.push(`${report.conflicts} left to another run`);
  if (!report.ok) parts.push(`${report.failures.length} failed`);
  const problems = report.problems.length;
  if (problems > 0) parts.push(counted(problems, 'listing problem'));
  // Normal is today's pace, nothing to say; hot and cold explain a gap shorter or longer than usual.
  if (report.cadence === 'hot' || report.cadence === 'cold') parts.push(`cadence ${report.cadence}`);
  parts.push(`next in ${secondsUntil(report)} s`);
  return `${name}: ${parts.join(', ')}`;
}

/** From the cycle's end, roughly: the line is printed as the cycle ends. */
function secondsUntil(report: PollReport): number {
  return Math.max(0, Math.round((report.nextPollAt - Date.now()) / 1000));
}

/** Listing problems told one by one; past these, the rest are counted in one more warning. */
export const MAX_PROBLEM_RECORDS = 10;

/** The cycle as a log record, with its listing problems and failures as their own records after it. */
export function pollReportRecords(
  report: PollReport,
  budgetPerMinute: number,
  outbox: OutboxCounts,
): LogRecord[] {
  const organization = { organization: report.organization.name, organizationId: report.organization.id };
  const cycle: LogRecord = {
    level: report.ok && report.problems.length === 0 && !report.leaseLost ? 'info' : 'warn',
    kind: 'cycle',
    message: formatPollReportLine(report, budgetPerMinute, outbox),
    fields: {
      ...organization,
      outcome: report.outcome,
      ...(report.reason === undefined ? {} : { reason: report.reason }),
      ...(report.leaseLost ? { leaseLost: true, leaseHolder: report.leaseHolder ?? null } : {}),
      ok: report.ok,
      ...(report.apiUnreachable ? { apiUnreachable: true } : {}),
      ...(report.tokenRejected ? { tokenRejected: true } : {}),
      requests: report.requests,
      requestsFor: report.requestsFor,
      vanished: report.vanished.length,
      nextPollAt: new Date(report.nextPollAt).toISOString(),
      ...(report.cadence === undefined ? {} : { cadence: report.cadence }),
      budgetRemaining: report.budgetRemaining,
      budgetPerMinute,
      ordersSeen: report.ordersSeen,
      events: report.events.length,
      deliveriesQueued: outbox.queued,
      deliveriesDead: outbox.dead,
      deferred: report.deferred,
      conflicts: report.conflicts,
      listingProblems: report.problems.length,
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
  return [cycle, ...listingProblemRecords(report, organization), ...failures];
}

function listingProblemRecords(report: PollReport, organization: Record<string, string>): LogRecord[] {
  const told = report.problems.slice(0, MAX_PROBLEM_RECORDS).map(
    (problem): LogRecord => ({
      level: 'warn',
      kind: 'listing',
      message: `  warning: ${report.organization.name}: ${describeListingProblem(problem)}`,
      fields: { ...organization, problem },
    }),
  );
  const rest = report.problems.slice(MAX_PROBLEM_RECORDS);
  if (rest.length === 0) return told;
  const summary: LogRecord = {
    level: 'warn',
    kind: 'listing',
    message: `  warning: ${report.organization.name}: ${counted(rest.length, 'more listing problem', 'more listing problems')}: ${countListingProblems(rest)}`,
    fields: {
      ...organization,
      more: rest.length,
      // The orders are what an operator looks for; `status` lists those that stay unreadable.
      uuids: [...new Set(rest.flatMap((problem) => (problem.uuid === undefined ? [] : [problem.uuid])))],
    },
  };
  return [...told, summary];
}

function describeOutbox({ queued, dead }: OutboxCounts): string {
  const parts: string[] = [];
  if (queued > 0) parts.push(`${counted(queued, 'delivery', 'deliveries')} queued`);
  if (dead > 0) parts.push(counted(dead, 'dead letter'));
  return parts.join(', ');
}
