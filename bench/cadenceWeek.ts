// A full simulated week (Monday 00:00 to the next Monday 00:00 in the organization's zone) polled by the
// real poll cycle under `cadence: "auto"` and under `"fixed"`: the requests each spends, and whether any
// transition the world made was never announced. Time is virtual and the Admin API is answered in process
// (the simulator's own world and orders route, 100 ms of latency, 50 requests a minute), so a week takes
// seconds. Each runtime's triggers: the AWS minute schedule and its tick chain (60 s default), and the
// local runner's scheduler (10 s default).
import { runPollScheduler } from '../cli/runtime/pollScheduler.js';
import { AdminApiClient } from '../shared/api/adminApiClient.js';
import { RequestBudget } from '../shared/api/requestBudget.js';
import type { Establishment, OrderStatus } from '../shared/api/schemas.js';
import {
  AWS_BUDGET_WAIT_MS,
  AWS_DEFAULT_POLL_INTERVAL_SECONDS,
} from '../shared/contracts/awsPollSettings.js';
import { OVERDUE_ALARM_PERIOD_MS, OVERDUE_ALARM_PERIODS } from '../shared/contracts/customMetrics.js';
import type { HttpClient, HttpResponse } from '../shared/http/httpClient.js';
import { overdueOf } from '../shared/operations/healthVerdict.js';
import { pollHealthOf } from '../shared/operations/statusReport.js';
import type { PolledOrganization } from '../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../shared/poll/errors.js';
import { pollOrganization } from '../shared/poll/pollOrganization.js';
import type { PollReport } from '../shared/poll/pollReport.js';
import { pollWhenDue, tickDelaySeconds } from '../shared/poll/pollWhenDue.js';
import { initialPollState } from '../shared/store/pollState.js';
import { SqliteStateStore } from '../shared/store/sqlite/sqliteStateStore.js';
import { addDays } from '../shared/time/calendarDate.js';
import { isoWeekday, zonedInstant } from '../shared/time/zonedTime.js';
import { PickupDateWriter } from '../simulator/pickupFormat.js';
import { SlidingWindowRateLimiter } from '../simulator/rateLimiter.js';
import { listEstablishments } from '../simulator/routes/establishments.js';
import { listOrders } from '../simulator/routes/orders.js';
import { SeededRandom } from '../simulator/seededRandom.js';
import { World } from '../simulator/world.js';
import type { WorldChange } from '../simulator/worldChange.js';
import { alarmDefinitionOf, type Datapoint, evaluateAlarm } from '../test/support/cloudWatchAlarm.js';
import { percentile, round } from './support/figures.js';
import { VirtualTime } from './support/virtualTime.js';

const TIME_ZONE = 'Europe/Lisbon';
/** Monday 9 March 2026, 00:00 in Lisbon (UTC+0 until the end of March). */
const MONDAY = '2026-03-09';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LATENCY_MS = 100;
const REQUESTS_PER_MINUTE = 50;
/** Either side of a closing time: the cadence's hot window, where detection latency is measured apart. */
const HOT_MARGIN_MS = 30 * MINUTE;
const BASE_URL = 'http://admin.bench.invalid/api/v1/admin';

type Runtime = 'local' | 'aws';
type Cadence = 'auto' | 'fixed';

/** What an establishment does in the simulated week. */
interface Site {
  workingDays: number[];
  closing: string;
  /** Orders a working day: arriving over the hours before closing, resolved after it. */
  ordersPerDay: number;
}

interface WeekWorld {
  name: string;
  sites: Site[];
  /** How long before a day's closing its orders arrive (evenly): parents order ahead, or on the day. */
  leadHours: number;
}

/**
 * A school: three canteens, Monday to Friday, closing in the morning for lunch. Parents order up to three
 * days ahead, so Monday's orders come in over the weekend and pending always holds a few days of them.
 */
export const SCHOOL: WeekWorld = {
  name: 'school',
  leadHours: 72,
  sites: [
    { workingDays: [1, 2, 3, 4, 5], closing: '09:00:00', ordersPerDay: 160 },
    { workingDays: [1, 2, 3, 4, 5], closing: '10:30:00', ordersPerDay: 90 },
    { workingDays: [1, 2, 3, 4, 5], closing: '11:00:00', ordersPerDay: 60 },
  ],
};
/**
 * The same school where every order is placed on the morning itself, in the six hours before closing: the
 * quiet days are nearly free even under `fixed`, and the hot windows are when pending is largest, so
 * `auto` costs more than it saves (see docs/benchmarks.md).
 */
const SAME_DAY_SCHOOL: WeekWorld = { ...SCHOOL, name: 'same-day school', leadHours: 6 };
/** The school's canteens, and a café open on Saturday too, closing in the afternoon. */
const SCHOOL_AND_CAFE: WeekWorld = {
  ...SCHOOL,
  name: 'cafe',
  sites: [...SCHOOL.sites, { workingDays: [1, 2, 3, 4, 5, 6], closing: '16:00:00', ordersPerDay: 40 }],
};

interface WeekFigures {
  requests: number;
  transitions: number;
  missed: number;
  hotDetectionP95: number;
  detectionP95: number;
  rateLimited: number;
  /** AWS runtime: the "not polled" alarm's notifications to ALARM over the week, as deployed now. */
  alarms?: number;
  /** The same under the alarm before issue 23: PollSucceeded of due triggers, Sum < 1 for 5 minutes. */
  alarmsBefore?: number;
}

export async function benchCadenceWeek(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  // The local runner's 10 s default and the café's Saturday are left out of `npm run bench` by default: a
  // simulated week costs a few minutes of CPU per run. CADENCE_WEEK_ALL=1 runs them too.
  const runs: Array<[WeekWorld, Runtime, string]> = [
    [SCHOOL, 'aws', 'cadence_week'],
    [SAME_DAY_SCHOOL, 'aws', 'cadence_week_same_day'],
    ...(process.env.CADENCE_WEEK_ALL === '1'
      ? ([
          [SCHOOL, 'local', 'cadence_week_local'],
          [SCHOOL_AND_CAFE, 'aws', 'cadence_week_cafe'],
        ] as Array<[WeekWorld, Runtime, string]>)
      : []),
  ];
  for (const [world, runtime, prefix] of runs) {
    for (const cadence of ['auto', 'fixed'] as const) {
      const started = performance.now();
      const result = await runWeek(world, runtime, cadence);
      process.stderr.write(
        `bench:   ${world.name}, ${runtime} runtime's settings, cadence ${cadence}: ${result.requests} requests, ${result.missed} missed of ${result.transitions}${result.alarms === undefined ? '' : `, ${result.alarms} not-polled alarms (${result.alarmsBefore} before issue 23)`} (${Math.round(performance.now() - started)} ms)\n`,
      );
      Object.assign(figures, {
        [`${prefix}_requests_${cadence}`]: result.requests,
        [`${prefix}_transitions_${cadence}`]: result.transitions,
        [`${prefix}_missed_${cadence}`]: result.missed,
        [`${prefix}_hot_detection_p95_s_${cadence}`]: round(result.hotDetectionP95, 1),
        [`${prefix}_detection_p95_s_${cadence}`]: round(result.detectionP95, 1),
        [`${prefix}_429s_${cadence}`]: result.rateLimited,
        ...(result.alarms === undefined
          ? {}
          : {
              [`${prefix}_not_polled_alarms_${cadence}`]: result.alarms,
              [`${prefix}_not_polled_alarms_before_fix_${cadence}`]: result.alarmsBefore ?? 0,
            }),
      });
    }
  }
  return figures;
}

export async function runWeek(week: WeekWorld, runtime: Runtime, cadence: Cadence): Promise<WeekFigures> {
  const start = zonedInstant(MONDAY, '00:00:00', TIME_ZONE);
  const end = zonedInstant(addDays(MONDAY, 7), '00:00:00', TIME_ZONE);
  const time = new VirtualTime(start);
  const rng = new SeededRandom(13);
  const world = new World({
    organization: { id: rng.fork('organization').uuid(), name: 'Bench School' },
    rng: rng.fork('world'),
    clock: time.clock,
    timeZone: TIME_ZONE,
    establishments: week.sites.length,
  });
  // The world's own establishments keep the week's hours, so GET /establishments answers them.
  world.establishments().forEach((establishment, index) => {
    const site = week.sites[index] as Site;
    world.setWorkingDays(establishment.uuid, site.workingDays);
    world.setOrderClosingTime(establishment.uuid, site.closing);
  });
  const establishments: Establishment[] = world.establishments();
  const plan = planWeek(week, establishments, rng.fork('plan'), end);
  // What happened before the week began is already there when polling starts: the first cycle records it
  // silently (emitExisting false), so it is not counted among the transitions to detect.
  plan.applyDue(world, start - 1);
  const changes: WorldChange[] = [];
  world.onChange((change) => changes.push(change));

  const store = new SqliteStateStore({ path: ':memory:', clock: time.clock });
  // The establishments cache as GET /establishments fills it: the week's schedule is known from the start.
  await store.savePollState({
    ...initialPollState(world.organization.id),
    establishments: { fetchedAt: start, records: establishments },
  });
  const token = 'bench-token';
  const budget = new RequestBudget({
    token,
    requestsPerMinute: REQUESTS_PER_MINUTE,
    store: store.budgetCounters,
    clock: time.clock,
    sleep: time.sleep,
    ...(runtime === 'aws' ? { maxWaitMs: AWS_BUDGET_WAIT_MS } : {}),
  });
  const served = { requests: 0, rateLimited: 0 };
  const limiter = new SlidingWindowRateLimiter(REQUESTS_PER_MINUTE);
  const api = new AdminApiClient({
    baseUrl: BASE_URL,
    organizationId: world.organization.id,
    organizationName: world.organization.name,
    token,
    budget,
    clock: time.clock,
    sleep: time.sleep,
    httpClient: () => inProcessApi(world, time, limiter, served, () => plan.applyDue(world, time.now)),
  });
  const organization: PolledOrganization = {
    id: world.organization.id,
    name: world.organization.name,
    timeZone: TIME_ZONE,
    window: { daysBack: 0, daysAhead: 7 },
    statuses: ['pending', 'completed', 'canceled', 'archived'],
    emitExisting: false,
    pollIntervalSeconds: runtime === 'aws' ? AWS_DEFAULT_POLL_INTERVAL_SECONDS : 10,
    sweepIntervalSeconds: 300,
    cadence,
  };
  const deps = {
    api,
    store,
    clock: time.clock,
    runId: `bench-${runtime}`,
    baseUrl: BASE_URL,
    // A figure measured past a failed cleanup would not be the world's: stop there.
    onCleanupFailure: (failure: CycleCleanupError) => {
      throw failure;
    },
  };
  const detected = new Map<string, Array<{ type: string; at: number }>>();
  const overdue: Datapoint[] = [];
  const succeeded: Datapoint[] = [];
  const onReport = (report: PollReport) => {
    for (const event of report.events) {
      const list = detected.get(event.subject) ?? [];
      list.push({ type: event.type, at: time.now });
      detected.set(event.subject, list);
    }
  };

  if (runtime === 'local') {
    const stop = new AbortController();
    await runPollScheduler({
      organizations: [{ organization, lockKey: budget.key }],
      runCycle: () => pollOrganization(organization, deps),
      onReport: async (_entry, report) => {
        onReport(report);
        if (time.now >= end) stop.abort();
      },
      onError: (_entry, error) => {
        throw error;
      },
      stop: stop.signal,
      clock: time.clock,
      sleep: async (ms) => {
        await time.sleep(ms);
        if (time.now >= end) stop.abort();
      },
    });
  } else {
    // The minute schedule, and the tick each cycle sends for the next.
    const triggers: Array<{ at: number; kind: 'schedule' | 'tick' }> = [{ at: start, kind: 'schedule' }];
    for (let trigger = triggers.shift(); trigger && trigger.at < end; trigger = triggers.shift()) {
      time.now = Math.max(time.now, trigger.at);
      if (trigger.kind === 'schedule') triggers.push({ at: trigger.at + MINUTE, kind: 'schedule' });
      const result = await pollWhenDue(organization, deps);
      // What the poller publishes for the alarms: PollOverdue on every trigger, PollSucceeded per cycle.
      const state = await store.loadPollState(organization.id);
      overdue.push({
        at: time.now,
        value: overdueOf(pollHealthOf(organization, state), time.now).overdue ? 1 : 0,
      });
      if (result.outcome === 'polled') {
        const ok = result.report.outcome === 'polled' && result.report.ok;
        succeeded.push({ at: time.now, value: ok ? 1 : 0 });
        onReport(result.report);
        if (result.report.outcome !== 'skipped') {
          const delay = tickDelaySeconds(result.report.nextPollAt, time.now) * 1000;
          triggers.push({ at: time.now + delay, kind: 'tick' });
        }
      }
      triggers.sort((a, b) => a.at - b.at);
    }
  }
  await api.close();
  store.close();
  const figures = measure(changes, detected, plan.closings, end, served);
  if (runtime === 'aws') {
    const fired = (definition: Record<string, unknown>, datapoints: Datapoint[]) =>
      evaluateAlarm(alarmDefinitionOf(definition), datapoints, { from: start, to: end }).filter(
        ({ state }) => state === 'ALARM',
      ).length;
    const metric = { MetricName: 'x', Dimensions: [], Period: OVERDUE_ALARM_PERIOD_MS / 1000 };
    figures.alarms = fired(
      {
        ...metric,
        Statistic: 'Maximum',
        EvaluationPeriods: OVERDUE_ALARM_PERIODS,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'breaching',
      },
      overdue,
    );
    figures.alarmsBefore = fired(
      {
        ...metric,
        Statistic: 'Sum',
        EvaluationPeriods: 5,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      },
      succeeded,
    );
  }
  return figures;
}

interface PlannedChange {
  at: number;
  apply(world: World): void;
}

/**
 * The week's orders: each working day, an establishment's orders arrive over the `leadHours` before its
 * closing time, a few are canceled before it; after it, most are collected over lunch and the afternoon, a
 * few are canceled late. Days an establishment does not work stay quiet. The days after the week are
 * planned too, since their orders arrive within it.
 */
function planWeek(week: WeekWorld, establishments: Establishment[], rng: SeededRandom, end: number) {
  const planned: PlannedChange[] = [];
  const closings: number[] = [];
  const lead = week.leadHours * HOUR;
  week.sites.forEach((site, index) => {
    const establishment = establishments[index] as Establishment;
    for (let day = 0; day < 7 + Math.ceil(week.leadHours / 24); day += 1) {
      const date = addDays(MONDAY, day);
      if (!site.workingDays.includes(isoWeekday(date))) continue;
      const closesAt = zonedInstant(date, site.closing, TIME_ZONE);
      if (closesAt < end) closings.push(closesAt);
      const dayRng = rng.fork(`${index}:${date}`);
      for (let n = 0; n < site.ordersPerDay; n += 1) {
        const createdAt = closesAt - lead + Math.floor(dayRng.next() * lead);
        if (createdAt >= end) continue;
        const uuid = dayRng.uuid();
        planned.push({
          at: createdAt,
          apply: (world) =>
            world.addOrder({
              uuid,
              pickupDate: date,
              establishment: establishment.uuid,
              createdAtMs: createdAt,
            }),
        });
        const fate = dayRng.next();
        const resolve = (status: OrderStatus, at: number) =>
          planned.push({ at, apply: (world) => world.setStatus(uuid, status, { atMs: at }) });
        if (fate < 0.04) resolve('canceled', createdAt + Math.floor(dayRng.next() * (closesAt - createdAt)));
        else if (fate < 0.07) resolve('canceled', closesAt + Math.floor(dayRng.next() * 2 * HOUR));
        else resolve('completed', closesAt + HOUR + Math.floor(dayRng.next() * 5 * HOUR));
      }
    }
  });
  planned.sort((a, b) => a.at - b.at);
  let next = 0;
  return {
    closings,
    /** Applies every change due by `now`, each at its own time. */
    applyDue(world: World, now: number): void {
      while (next < planned.length && (planned[next] as PlannedChange).at <= now) {
        (planned[next] as PlannedChange).apply(world);
        next += 1;
      }
    },
  };
}

/**
 * The simulator's GET /orders answered in process: the latency moves the virtual clock, the world is
 * brought up to the moment, and the simulator's own limit answers 429 past 50 requests a minute.
 */
function inProcessApi(
  world: World,
  time: VirtualTime,
  limiter: SlidingWindowRateLimiter,
  served: { requests: number; rateLimited: number },
  applyDue: () => void,
): HttpClient {
  const pickupDates = new PickupDateWriter('iso');
  return {
    async request(url): Promise<HttpResponse> {
      await time.sleep(LATENCY_MS);
      applyDue();
      served.requests += 1;
      let status = 200;
      let body: unknown;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const limit = limiter.consume('bench-token', time.now);
      if (!limit.allowed) {
        served.rateLimited += 1;
        status = 429;
        body = { success: false, message: 'Too Many Attempts.' };
        headers['retry-after'] = String(limit.retryAfterSeconds);
      } else {
        const response = url.pathname.endsWith('/establishments')
          ? listEstablishments(world)
          : listOrders({
              world,
              query: url.searchParams,
              listingPath: `${url.origin}${url.pathname}`,
              shape: 'envelope',
              pickupDates,
            });
        status = response.status;
        body = response.body;
      }
      const text = JSON.stringify(body);
      return {
        status,
        headers,
        body: {
          text: async () => text,
          dump: async () => {},
          async *[Symbol.asyncIterator]() {
            yield new TextEncoder().encode(text);
          },
        },
      };
    },
    close: async () => {},
  };
}

const EVENT_OF_STATUS: Record<string, string> = {
  completed: 'order.completed',
  canceled: 'order.canceled',
  archived: 'order.archived',
};

function measure(
  changes: readonly WorldChange[],
  detected: ReadonlyMap<string, Array<{ type: string; at: number }>>,
  closings: readonly number[],
  end: number,
  served: { requests: number; rateLimited: number },
): WeekFigures {
  let transitions = 0;
  let missed = 0;
  const delays: number[] = [];
  const hotDelays: number[] = [];
  for (const change of changes) {
    const type = change.kind === 'created' ? 'order.created' : EVENT_OF_STATUS[change.to ?? ''];
    if (!type || change.at >= end) continue;
    transitions += 1;
    const seen = detected.get(change.orderUuid)?.find((d) => d.type === type && d.at >= change.at);
    if (!seen) {
      missed += 1;
      continue;
    }
    const delay = (seen.at - change.at) / 1000;
    delays.push(delay);
    if (closings.some((closesAt) => Math.abs(change.at - closesAt) <= HOT_MARGIN_MS)) hotDelays.push(delay);
  }
  return {
    requests: served.requests,
    transitions,
    missed,
    hotDetectionP95: percentile(hotDelays, 0.95),
    detectionP95: percentile(delays, 0.95),
    rateLimited: served.rateLimited,
  };
}
