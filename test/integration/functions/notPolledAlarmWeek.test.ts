// A Monday-to-Sunday week under `cadence: "auto"` through the poller's trigger use case
// (functions/poller/pollOnTrigger.ts, what the handler runs for each tick) and the watchdog's
// (shared/poll/watchChains.ts, run every minute: it starts the chain and restarts a lost one), in virtual
// time, the Admin API in memory (canteens working Monday to Friday), and the "organizations not polled"
// alarm as the synthesized template defines it, evaluated like CloudWatch over the OrganizationsOverdue
// counts the watchdog published. While cycles succeed it never fires, on the
// closed weekend (a cycle every coldSweepMinutes) nor at night; when the poller stops running, throws, has
// its token rejected or is starved of budget, it fires within max(5 min, 2 × the planned interval + 1 min)
// of the last successful cycle, on a working day and on a closed one.
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { describe, expect, it } from 'vitest';
import type { PollTrigger } from '../../../functions/poller/pollerEvent.js';
import { pollOnTrigger, type TriggerDependencies } from '../../../functions/poller/pollOnTrigger.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { ORGANIZATIONS_OVERDUE_METRIC } from '../../../shared/contracts/customMetrics.js';
import { outageBoundMs } from '../../../shared/detect/overdue.js';
import { pollIntervalMs } from '../../../shared/operations/healthVerdict.js';
import { pollHealthOf } from '../../../shared/operations/statusReport.js';
import { tickDelaySeconds } from '../../../shared/poll/pollWhenDue.js';
import { watchChains } from '../../../shared/poll/watchChains.js';
import { exampleConfig, notifierApp, resourcesOfType } from '../../infra/support/notifierApp.js';
import { alarmDefinitionOf, type Datapoint, evaluateAlarm } from '../../support/cloudWatchAlarm.js';
import { CountingBudget } from '../../support/cycleBudgets.js';
import { apiFailures, InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { InMemoryStateStore } from '../../support/inMemoryStateStore.js';
import { makeEstablishment } from '../../support/orderFactory.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Monday 9 March 2026, 00:00 in Lisbon (UTC+0 until the end of March). */
const MONDAY = Date.parse('2026-03-09T00:00:00.000Z');
const WEDNESDAY_AFTERNOON = MONDAY + 2 * DAY + 14 * HOUR + 7 * MINUTE;
const WEDNESDAY_CLOSING = MONDAY + 2 * DAY + 10 * HOUR + 20 * MINUTE;
const SATURDAY = MONDAY + 5 * DAY + 13 * HOUR + 7 * MINUTE;

const written = exampleConfig();
const config = parseConfig(written);
const organization = (() => {
  const [first] = config.organizations;
  if (!first) throw new Error('the example config has no organization');
  return first;
})();
const { template } = notifierApp(written);
const notPolled = alarmDefinitionOf(
  resourcesOfType(template, 'AWS::CloudWatch::Alarm')
    .map(([, alarm]) => alarm.Properties ?? {})
    .find((alarm) => alarm.MetricName === ORGANIZATIONS_OVERDUE_METRIC) ?? {},
);

type Outage = 'not running' | 'throws' | 'token rejected' | 'budget spent';

interface Run {
  datapoints: Datapoint[];
  /** Each successful cycle: when, and the interval its pace planned. */
  successes: Array<{ at: number; intervalMs: number }>;
  cycles: number[];
}

/** The poller publishes nothing per organization now: only ListingProblems, not read here. */
function silentMetrics(): Metrics {
  return { singleMetric: () => ({ addMetric() {} }) } as unknown as Metrics;
}

async function runWeek(options: {
  from: number;
  to: number;
  outage?: { kind: Outage; at: number };
}): Promise<Run> {
  let now = options.from;
  const clock = () => now;
  const store = new InMemoryStateStore({ clock });
  const budget = new CountingBudget({ clock });
  const source = new InMemoryOrdersSource({
    organizationId: organization.id,
    organizationName: organization.name,
    budget,
    clock,
    timeZone: organization.timeZone,
    establishments: [
      makeEstablishment({ working_days: [1, 2, 3, 4, 5], order_closing_time: '09:00:00' }),
      makeEstablishment({ working_days: [1, 2, 3, 4, 5], order_closing_time: '10:30:00' }),
    ],
  });
  const run: Run = { datapoints: [], successes: [], cycles: [] };
  const triggers = new TriggerQueue();
  const deps: TriggerDependencies = {
    config,
    clientFor: async () => source,
    // One organization on its token.
    tokenIdentityOf: async () => 'token#week',
    store,
    ticks: {
      async send(tick, nowMs) {
        const delay = tickDelaySeconds(tick.dueAt, nowMs);
        triggers.push({
          at: nowMs + delay * 1000,
          trigger: { source: 'tick', ...tick, messageId: `tick-${triggers.pushed}` },
        });
        return delay;
      },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    metrics: silentMetrics(),
    clock,
    runId: 'week',
  };
  const outage = options.outage;
  let brokeToken = false;
  // A stack deployed before the window: its chain of ticks is running, first at `from`, before the
  // watchdog's run of that minute (a fresh deployment's first minute reads the organization never polled).
  triggers.push({
    at: options.from,
    trigger: { source: 'tick', organizationId: organization.id, dueAt: options.from, messageId: 'running' },
  });
  for (let minute = options.from; minute < options.to; minute += MINUTE) {
    triggers.push({ at: minute, trigger: 'watchdog' });
  }
  for (let next = triggers.shift(); next !== undefined; next = triggers.shift()) {
    if (next.at >= options.to) break;
    now = Math.max(now, next.at);
    // A fresh minute of the token's budget, unless the outage spends it all elsewhere.
    const failing = outage !== undefined && now >= outage.at;
    budget.available = failing && outage.kind === 'budget spent' ? 0 : 45;
    if (failing && outage.kind === 'token rejected' && !brokeToken) {
      source.failListing({ error: apiFailures.unauthorized() });
      source.failListing({ listing: 'establishments', error: apiFailures.unauthorized() });
      brokeToken = true;
    }
    if (next.trigger === 'watchdog') {
      // The watchdog runs whatever the poller does, and publishes the count of overdue organizations.
      const report = await watchChains([organization], {
        store,
        restart: async (organizationId, dueAt) => {
          triggers.push({
            at: now,
            trigger: { source: 'tick', organizationId, dueAt, messageId: `restart-${triggers.pushed}` },
          });
        },
        clock,
      });
      run.datapoints.push({ at: now, value: report.overdue.length });
      continue;
    }
    if (failing && outage.kind === 'not running') continue;
    const before = (await store.loadPollState(organization.id))?.health.lastSuccessAt ?? null;
    if (failing && outage.kind === 'throws')
      store.failNext('loadPollState', new Error('DynamoDB unreachable'));
    try {
      const result = await pollOnTrigger(next.trigger, deps);
      if (result.outcome !== 'not_due') run.cycles.push(now);
    } catch {
      // A poller that throws sends no tick: the Lambda counts an error, the watchdog restarts the chain.
    }
    const state = await store.loadPollState(organization.id);
    const after = state?.health.lastSuccessAt ?? null;
    if (after !== null && after !== before) {
      run.successes.push({ at: after, intervalMs: pollIntervalMs(pollHealthOf(organization, state)) });
    }
    // Each cycle takes some 100 ms of virtual time.
    now += 100;
  }
  return run;
}

/**
 * The triggers still to come, earliest first; of two at the same time, the one pushed first. Kept in order
 * as they are pushed: a week holds some 10,000 watchdog runs, and sorting them again after each of the
 * 30,000 cycles (and shifting the array) was most of this file's time, minutes of it on a busy machine.
 */
class TriggerQueue {
  readonly #queue: Array<{ at: number; trigger: PollTrigger | 'watchdog' }> = [];
  #head = 0;
  pushed = 0;

  push(entry: { at: number; trigger: PollTrigger | 'watchdog' }): void {
    // After the last one due at or before it (ticks come due within 15 minutes: near the front).
    let low = this.#head;
    let high = this.#queue.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#queue[middle]?.at ?? 0) <= entry.at) low = middle + 1;
      else high = middle;
    }
    this.#queue.splice(low, 0, entry);
    this.pushed += 1;
  }

  shift(): { at: number; trigger: PollTrigger | 'watchdog' } | undefined {
    const next = this.#queue[this.#head];
    if (next !== undefined) this.#head += 1;
    return next;
  }
}

function alarmsOf(run: Run, from: number, to: number) {
  return evaluateAlarm(notPolled, run.datapoints, { from, to });
}

describe('the "not polled" alarm over a week under cadence auto', () => {
  it('is the deployed alarm: OrganizationsOverdue, its Maximum, two one-minute periods, missing data breaching', () => {
    expect(notPolled).toMatchObject({
      metricName: 'OrganizationsOverdue',
      statistic: 'Maximum',
      periodMs: MINUTE,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      threshold: 1,
      comparisonOperator: 'GreaterThanOrEqualToThreshold',
      treatMissingData: 'breaching',
    });
  });

  it('never fires while cycles succeed: not on the closed weekend polled every 15 minutes, not at night', async () => {
    const end = MONDAY + 7 * DAY;
    const run = await runWeek({ from: MONDAY, to: end });
    const transitions = alarmsOf(run, MONDAY, end);
    // The first period ends OK (INSUFFICIENT_DATA → OK, not a page), and nothing after it.
    expect(transitions).toEqual([{ at: MONDAY + MINUTE, state: 'OK' }]);
    expect(transitions.filter(({ state }) => state === 'ALARM')).toHaveLength(0);
    // The weekend was polled cold: a cycle every 15 minutes or so, no more.
    const saturday = run.cycles.filter((at) => at >= MONDAY + 5 * DAY && at < MONDAY + 6 * DAY);
    expect(saturday.length).toBeGreaterThan(80);
    expect(saturday.length).toBeLessThanOrEqual(100);
    expect(run.datapoints.length).toBeGreaterThanOrEqual(7 * 24 * 60);
    // A week of cycles every 15 s on working days (a small organization at the AWS default): about 30,000
    // cycles, a minute of CPU alone and several on a busy 2-core machine.
  }, 600_000);

  const cases: Array<[Outage, string, number]> = [
    ['not running', 'a working afternoon', WEDNESDAY_AFTERNOON],
    ['not running', 'a closed Saturday', SATURDAY],
    ['throws', 'a working day at closing time', WEDNESDAY_CLOSING],
    ['throws', 'a closed Saturday', SATURDAY],
    ['token rejected', 'a working afternoon', WEDNESDAY_AFTERNOON],
    ['token rejected', 'a closed Saturday', SATURDAY],
    ['budget spent', 'a working afternoon', WEDNESDAY_AFTERNOON],
    ['budget spent', 'a closed Saturday', SATURDAY],
  ];
  it.each(cases)(
    'fires within max(5 min, 2 × interval + 1 min) of the last success when the poller %s on %s',
    async (kind, _day, at) => {
      const from = at - DAY;
      const to = at + 2 * HOUR;
      const run = await runWeek({ from, to, outage: { kind, at } });
      const transitions = alarmsOf(run, from, to);
      const fired = transitions.filter(({ state }) => state === 'ALARM');
      expect(fired).toHaveLength(1);
      const firedAt = fired[0]?.at ?? 0;
      expect(firedAt).toBeGreaterThanOrEqual(at);
      const last = run.successes.filter((success) => success.at <= at).at(-1);
      if (!last) throw new Error('no success before the outage');
      expect(run.successes.filter((success) => success.at > at)).toEqual([]);
      expect(firedAt - last.at).toBeLessThanOrEqual(outageBoundMs(last.intervalMs));
    },
    60_000,
  );
});
