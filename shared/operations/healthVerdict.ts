// Whether the notifier is healthy (pure): the one decision behind the exit code of `meal-notifier status`,
// locally and with --stack, and behind the local runner's /healthz. Healthy is every organization polled
// successfully within its last three poll intervals, nothing dead (no dead letter, no subscriber disabled,
// no stream batch the publisher gave up on), no person's backlog older than its catchUpAfter, and nothing
// the report could not read. Each problem is one line naming what is at fault and where to look.

import { counted } from '../text/counted.js';
import { humanDuration } from '../time/humanDuration.js';
import type { OrganizationStatus, StatusReport, SubscriberStatus } from './statusReport.js';

/** Poll intervals without a successful cycle after which an organization is failing: one late or failed
 *  cycle is weather, three in a row are not. */
export const STALE_AFTER_INTERVALS = 3;

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

/**
 * The gap the organization is polled at: what its pace last decided (the token's budget may space cycles
 * further apart than the config asks), never less than the config's shortest gap.
 */
export function pollIntervalMs(organization: OrganizationStatus): number {
  const floor = organization.pollIntervalSeconds * 1000;
  if (organization.nextPollAt === null || organization.lastAttemptAt === null) return floor;
  return Math.max(floor, Date.parse(organization.nextPollAt) - Date.parse(organization.lastAttemptAt));
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
  const interval = pollIntervalMs(organization);
  const age = nowMs - Date.parse(lastSuccessAt);
  if (age <= STALE_AFTER_INTERVALS * interval) return undefined;
  const late = `last successful poll ${humanDuration(age)} ago, over ${STALE_AFTER_INTERVALS} poll intervals of ${humanDuration(interval)}`;
  return `${name}: ${late}; ${sinceThen(organization, onStack)}`;
}

/** What became of the cycles after the last success (or since the first attempt, if none succeeded). */
function sinceThen(organization: OrganizationStatus, onStack: boolean): string {
  const { consecutiveFailures, lastError, lastSuccessAt, lastAttemptAt } = organization;
  if (consecutiveFailures > 0) {
    return `${counted(consecutiveFailures, 'failed cycle')} in a row, the last: ${lastError ?? 'no error recorded'}`;
  }
  if (lastAttemptAt !== null && (lastSuccessAt === null || lastAttemptAt > lastSuccessAt)) {
    // Saved without success or failure: a cycle deferred because the token's budget had no room.
    return 'its cycles were deferred for want of request budget (see api.requestsPerMinute and the organizations sharing its token)';
  }
  return onStack
    ? "no cycle has run since: check the poller's log and that polling is on"
    : 'no cycle has run since: is meal-notifier poll running with this config?';
}
