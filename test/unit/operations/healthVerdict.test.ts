// The health verdict behind `status`'s exit code and the runner's /healthz: every organization polled
// successfully within the overdue rule's allowance of its poll interval (the pace's, at least the config's:
// shared/detect/overdue.ts, the AWS alarm's rule too), nothing dead, no
// person behind by more than its catchUpAfter; one line per problem, naming what is at fault and where to look.
import { describe, expect, it } from 'vitest';
import { assessHealth, pollIntervalMs } from '../../../shared/operations/healthVerdict.js';
import type {
  LocalStatusReport,
  OrganizationStatus,
  StackStatusReport,
  SubscriberStatus,
} from '../../../shared/operations/statusReport.js';

const NOW = Date.parse('2026-03-05T10:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

function organization(overrides: Partial<OrganizationStatus> = {}): OrganizationStatus {
  return {
    id: '0e9a0000-0000-4000-8000-00000000000a',
    name: 'North School',
    pollIntervalSeconds: 10,
    lastSuccessAt: ago(5),
    lastAttemptAt: ago(5),
    nextPollAt: ago(-5),
    consecutiveFailures: 0,
    lastError: null,
    tokenRejectedSince: null,
    snapshots: 12,
    eventsLastHour: 0,
    eventsLastDay: 0,
    unreadableOrders: [],
    unreadableEstablishments: [],
    ...overrides,
  };
}

function subscriber(overrides: Partial<SubscriberStatus> = {}): SubscriberStatus {
  return {
    id: 'automation',
    type: 'webhook',
    enabledInConfig: true,
    disabled: null,
    queued: 0,
    dead: 0,
    ...overrides,
  };
}

function local(organizations: OrganizationStatus[], subscribers: SubscriberStatus[] = []): LocalStatusReport {
  return { statePath: '/tmp/state.db', stateExists: true, organizations, subscribers };
}

function stack(overrides: Partial<StackStatusReport> = {}): StackStatusReport {
  return {
    stack: 'Notifier',
    tableName: 'Notifier-State',
    pollingEnabled: true,
    organizations: [organization()],
    subscribers: [subscriber()],
    channels: [],
    publisherFailures: 0,
    problems: [],
    ...overrides,
  };
}

describe('assessHealth', () => {
  it('is healthy when every organization polled successfully lately and nothing is dead', () => {
    const report = local([organization(), organization({ name: 'South Academy' })], [subscriber()]);
    expect(assessHealth(report, NOW)).toEqual({ healthy: true, problems: [] });
  });

  it('fails an organization never polled, saying whether anything ran for it', () => {
    const never = organization({ lastSuccessAt: null, lastAttemptAt: null, nextPollAt: null });
    expect(assessHealth(local([never]), NOW).problems).toEqual([
      'North School: never polled: no cycle has finished yet (is meal-notifier poll running with this config?)',
    ]);
    expect(assessHealth(stack({ organizations: [never] }), NOW).problems).toEqual([
      "North School: never polled: check that its token is put (the stack's Secret outputs) and the poller's log",
    ]);
  });

  it('fails an organization whose cycles all failed, with the count and the last error', () => {
    const failing = organization({
      lastSuccessAt: null,
      consecutiveFailures: 2,
      lastError: 'North School: cannot reach the API (ECONNREFUSED)',
    });
    expect(assessHealth(local([failing]), NOW)).toEqual({
      healthy: false,
      problems: [
        // The failure line's own "North School: " is not said twice.
        'North School: never polled successfully; 2 failed cycles in a row, the last: cannot reach the API (ECONNREFUSED)',
      ],
    });
  });

  it('fails an organization whose token the API rejects at once, in its failure line, before it is overdue', () => {
    const line =
      'North School: token rejected: put a new token; the API answered 401 (unauthorized): the value of NORTH_TOKEN is wrong, expired or revoked';
    const rejected = organization({
      consecutiveFailures: 1,
      lastError: line,
      tokenRejectedSince: ago(3),
    });
    const problems = [`${line} (rejected since ${ago(3)}; tried again every 5 min)`];
    expect(assessHealth(local([rejected, organization({ name: 'South Academy' })]), NOW)).toEqual({
      healthy: false,
      problems,
    });
    expect(assessHealth(stack({ organizations: [rejected] }), NOW).problems).toEqual(problems);
  });

  it("allows the overdue rule's allowance since the last success (2 min at a 10 s interval), failures in between included", () => {
    const at = (seconds: number, failures = 0) =>
      assessHealth(
        local([
          organization({
            lastSuccessAt: ago(seconds),
            lastAttemptAt: ago(5),
            nextPollAt: ago(-5),
            consecutiveFailures: failures,
            lastError: failures ? 'API answered 500' : null,
          }),
        ]),
        NOW,
      );
    expect(at(120, 2).healthy).toBe(true);
    expect(at(121, 2)).toEqual({
      healthy: false,
      problems: [
        'North School: last successful poll 2 min ago, over the 2 min its poll interval of 10 s allows; 2 failed cycles in a row, the last: API answered 500',
      ],
    });
  });

  it('counts intervals as the pace spaced them when the budget spaces cycles wider than the config asks', () => {
    // The pace chose 15 min between cycles (a day no establishment works): 25 min without a new success is
    // still within its allowance, 2 × 15 min − 2 min.
    const paced = organization({ lastSuccessAt: ago(1500), lastAttemptAt: ago(1500), nextPollAt: ago(600) });
    expect(pollIntervalMs(paced)).toBe(900_000);
    expect(assessHealth(local([paced]), NOW).healthy).toBe(true);
    // A short deferral retry never shrinks the interval below the config's.
    expect(pollIntervalMs(organization({ lastAttemptAt: ago(1), nextPollAt: ago(-4) }))).toBe(10_000);
  });

  it('says when no cycle has run since the last success: the runner is not running', () => {
    const stopped = organization({ lastSuccessAt: ago(600), lastAttemptAt: ago(600), nextPollAt: ago(590) });
    expect(assessHealth(local([stopped]), NOW).problems).toEqual([
      'North School: last successful poll 10 min ago, over the 2 min its poll interval of 10 s allows; no cycle has run since: is meal-notifier poll running with this config?',
    ]);
  });

  it('says when the cycles since were deferred for want of budget', () => {
    const starved = organization({ lastSuccessAt: ago(240), lastAttemptAt: ago(3), nextPollAt: ago(-2) });
    expect(assessHealth(local([starved]), NOW).problems[0]).toMatch(
      /^North School: last successful poll 4 min ago, .*; its cycles were deferred for want of request budget/,
    );
  });

  it('fails on dead letters and on a disabled subscriber, one line each, with the command to run', () => {
    const report = local(
      [organization()],
      [
        subscriber({ id: 'automation', dead: 2 }),
        subscriber({
          id: 'legacy',
          disabled: { since: ago(60), reason: 'https://hooks.example.test answered 410' },
          dead: 1,
        }),
        subscriber({ id: 'office', queued: 5 }),
      ],
    );
    expect(assessHealth(report, NOW)).toEqual({
      healthy: false,
      problems: [
        'subscriber automation has 2 dead letters: see meal-notifier deliveries --failed',
        'subscriber legacy is disabled: https://hooks.example.test answered 410 (meal-notifier replay to it enables it again)',
        'subscriber legacy has 1 dead letter: see meal-notifier deliveries --failed',
      ],
    });
  });

  it('fails on a subscriber paused for a fix by hand, saying in one line what to do', () => {
    const report = local(
      [organization()],
      [
        subscriber({
          id: 'kitchen',
          type: 'slack',
          queued: 3,
          paused: {
            since: ago(60),
            reason:
              'the Slack app is not in the channel (chat.postMessage: not_in_channel): invite the app to channel C0123ABCD (/invite @the-app in the channel)',
          },
        }),
      ],
    );
    expect(assessHealth(report, NOW)).toEqual({
      healthy: false,
      problems: [
        'subscriber kitchen is paused: the Slack app is not in the channel (chat.postMessage: not_in_channel): invite the app to channel C0123ABCD (/invite @the-app in the channel); its deliveries are kept and go out once that is done',
      ],
    });
  });

  it('fails on a person whose oldest queued change is older than its catchUpAfter, and only then', () => {
    const kitchen = (behindSince: string | null, queued = 12) =>
      subscriber({ id: 'kitchen', type: 'slack', queued, catchUpAfterSeconds: 900, behindSince });
    expect(assessHealth(local([organization()], [kitchen(ago(25 * 60))]), NOW)).toEqual({
      healthy: false,
      problems: [
        'subscriber kitchen is behind: its oldest queued change is 25 min old, over its catchUpAfter of 15 min, 12 deliveries queued; see meal-notifier deliveries',
      ],
    });
    expect(assessHealth(local([organization()], [kitchen(ago(14 * 60))]), NOW).healthy).toBe(true);
    expect(assessHealth(local([organization()], [kitchen(null, 0)]), NOW).healthy).toBe(true);
    // A webhook gets every event however late: a backlog is weather, which dead letters will tell.
    const hook = subscriber({ queued: 40, behindSince: ago(3_600) });
    expect(assessHealth(local([organization()], [hook]), NOW).healthy).toBe(true);
  });

  it('on a stack, also fails on batches the publisher gave up on and on what could not be read', () => {
    const report = stack({
      subscribers: [
        subscriber({ dead: 1 }),
        subscriber({ id: 'office', type: 'email', queued: null, dead: null }),
      ],
      publisherFailures: 3,
      problems: ['cannot reach the queue of automation'],
    });
    expect(assessHealth(report, NOW).problems).toEqual([
      'subscriber automation has 1 dead letter: see meal-notifier deliveries --stack Notifier --failed',
      '3 stream batches the publisher gave up on: their events were recorded but not published; see meal-notifier republish --stack Notifier',
      'not known: cannot reach the queue of automation',
    ]);
  });

  it('does not count organizations on a stack deployed with polling off', () => {
    const never = organization({ lastSuccessAt: null, lastAttemptAt: null, nextPollAt: null });
    expect(assessHealth(stack({ pollingEnabled: false, organizations: [never] }), NOW)).toEqual({
      healthy: true,
      problems: [],
    });
  });
});
