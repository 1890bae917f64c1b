// Whether the notifier is healthy (pure): the one decision behind the exit code of `meal-notifier status`,
// locally and with --stack, and behind the local runner's /healthz. Healthy is every organization polled
// successfully within the allowance of its planned poll interval (the one overdue rule,
// shared/detect/overdue.ts, which the AWS alarm reads too), nothing dead (no dead letter, no subscriber disabled,
// no stream batch the publisher gave up on), no person's backlog older than its catchUpAfter, and nothing
// the report could not read. Each problem is one line naming what is at fault and where to look.

import {
  assessOverdue,
  type OverdueInput,
  type OverdueVerdict,
  plannedIntervalMs,
} from '../detect/overdue.js';
import { counted } from '../text/counted.js';
import { humanDuration } from '../time/humanDuration.js';
import type { OrganizationStatus, StatusReport, SubscriberStatus } from './statusReport.js';

export interface Health {
  healthy: boolean;
  /** One line per problem: organizations first, then subscribers, the publisher, what was not known. */
  problems: string[];
}

export function assessHealth(report: StatusReport, nowMs: number): Health {
  const onStack = 'stack' in report;
  const stackFlag = onStack ? ` --stack ${report.stack}` : '';
  const problems: string[] = [];
  // A stack deployed with polling off polls nothing, by request: its organizations are not failing.
  if (!onStack || report.pollingEnabled) {
    for (const organization of report.organizations) {
      const problem = organizationProblem(organization, nowMs, onStack);
      if (problem !== undefined) problems.push(problem);
    }
  }
  for (const subscriber of report.subscribers) {
    if (subscriber.disabled) {
      problems.push(
        `subscriber ${subscriber.id} is disabled: ${subscriber.disabled.reason} (meal-notifier replay${stackFlag} to it enables it again)`,
      );
    }
    if (subscriber.paused) {
      problems.push(
        `subscriber ${subscriber.id} is paused: ${subscriber.paused.reason}; its deliveries are kept and go out once that is done`,
      );
    }
    const behind = behindProblem(subscriber, nowMs, stackFlag);
    if (behind !== undefined) problems.push(behind);
    if (subscriber.dead) {
      problems.push(
        `subscriber ${subscriber.id} has ${counted(subscriber.dead, 'dead letter')}: see meal-notifier deliveries${stackFlag} --failed`,
      );
    }
  }
  if (onStack) {
    if (report.publisherFailures) {
      problems.push(
        `${counted(report.publisherFailures, 'stream batch', 'stream batches')} the publisher gave up on: their events were recorded but not published; see meal-notifier republish${stackFlag}`,
      );
    }
    for (const unknown of report.problems) problems.push(`not known: ${unknown}`);
  }
  return { healthy: problems.length === 0, problems };
}

/**
 * A person's backlog older than its `catchUpAfter`: the receiver is down or too slow, and what is queued
 * will reach it as catch-ups, not as it happens.
 */
function behindProblem(subscriber: SubscriberStatus, nowMs: number, stackFlag: string): string | undefined {
  const { behindSince, catchUpAfterSeconds } = subscriber;
  if (behindSince === null || behindSince === undefined || catchUpAfterSeconds === undefined)
    return undefined;
  const age = nowMs - Date.parse(behindSince);
  if (age <= catchUpAfterSeconds * 1000) return undefined;
  const queued =
    subscriber.queued === null ? '' : `, ${counted(subscriber.queued, 'delivery', 'deliveries')} queued`;
  return `subscriber ${subscriber.id} is behind: its oldest queued change is ${humanDuration(age)} old, over its catchUpAfter of ${humanDuration(catchUpAfterSeconds * 1000)}${queued}; see meal-notifier deliveries${stackFlag}`;
}

/** The status line's times as the overdue rule reads them (epoch ms). */
function overdueInput(organization: OrganizationStatus): OverdueInput {
  const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  return {
    pollIntervalSeconds: organization.pollIntervalSeconds,
    lastSuccessAt: ms(organization.lastSuccessAt),
    lastAttemptAt: ms(organization.lastAttemptAt),
    nextPollAt: ms(organization.nextPollAt),
  };
}

/** The one overdue rule's verdict on a status line (shared/detect/overdue.ts): the AWS alarm's too. */
export function overdueOf(organization: OrganizationStatus, nowMs: number): OverdueVerdict {
  return assessOverdue(overdueInput(organization), nowMs);
}

/** The gap the organization is polled at, as the overdue rule plans it (shared/detect/overdue.ts). */
export function pollIntervalMs(organization: OrganizationStatus): number {
  return plannedIntervalMs(overdueInput(organization));
}

function organizationProblem(
  organization: OrganizationStatus,
  nowMs: number,
  onStack: boolean,
): string | undefined {
  const { name, lastSuccessAt, lastAttemptAt } = organization;
  if (lastSuccessAt === null) {
    if (lastAttemptAt === null) {
      return onStack
        ? `${name}: never polled: check that its token is put (the stack's Secret outputs) and the poller's log`
        : `${name}: never polled: no cycle has finished yet (is meal-notifier poll running with this config?)`;
    }
    return `${name}: never polled successfully; ${sinceThen(organization, onStack)}`;
  }
  const verdict = overdueOf(organization, nowMs);
  if (!verdict.overdue) return undefined;
  const age = verdict.ageMs ?? 0;
  const late = `last successful poll ${humanDuration(age)} ago, over the ${humanDuration(verdict.allowanceMs)} its poll interval of ${humanDuration(verdict.intervalMs)} allows`;
  return `${name}: ${late}; ${sinceThen(organization, onStack)}`;
}

/** What became of the cycles after the last success (or since the first attempt, if none succeeded). */
function sinceThen(organization: OrganizationStatus, onStack: boolean): string {
  const { consecutiveFailures, lastError, lastSuccessAt, lastAttemptAt, name } = organization;
  if (consecutiveFailures > 0) {
    // The failure line names the organization first, as every command prints it; this line already has.
    const error = lastError?.startsWith(`${name}: `) ? lastError.slice(name.length + 2) : lastError;
    return `${counted(consecutiveFailures, 'failed cycle')} in a row, the last: ${error ?? 'no error recorded'}`;
  }
  if (lastAttemptAt !== null && (lastSuccessAt === null || lastAttemptAt > lastSuccessAt)) {
    // Saved without success or failure: a cycle deferred because the token's budget had no room.
    return 'its cycles were deferred for want of request budget (see $.api.requestsPerMinute and the organizations sharing its token)';
  }
  return onStack
    ? "no cycle has run since: check the poller's log and that polling is on"
    : 'no cycle has run since: is meal-notifier poll running with this config?';
}
