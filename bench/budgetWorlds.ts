// Budget-true polling under the real limits: the simulator enforces 50 requests a minute per token and
// answers after 100 ms, time is virtual (so an hour takes seconds), and two worlds are polled with each
// runtime's own settings: the local runner's scheduler over SQLite, and the AWS poller's triggers (the
// minute schedule and the tick chain) over DynamoDB Local. Every transition the world makes is compared
// with the events recorded: missed, false and duplicate ids, and how late each was detected.
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runPollScheduler } from '../cli/runtime/pollScheduler.js';
import { AdminApiClient } from '../shared/api/adminApiClient.js';
import { RequestBudget } from '../shared/api/requestBudget.js';
import type { Order } from '../shared/api/schemas.js';
import {
  AWS_BUDGET_WAIT_MS,
  AWS_DEFAULT_POLL_INTERVAL_SECONDS,
  awsIntervalSeconds,
} from '../shared/contracts/awsPollSettings.js';
import { createStateTableInput } from '../shared/contracts/stateTableDefinition.js';
import { pagesFor } from '../shared/detect/listingSpec.js';
import { createUndiciHttpClient } from '../shared/http/undiciHttpClient.js';
import type { PolledOrganization } from '../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../shared/poll/errors.js';
import { pollOrganization } from '../shared/poll/pollOrganization.js';
import type { PollReport } from '../shared/poll/pollReport.js';
import { pollWhenDue, tickDelaySeconds } from '../shared/poll/pollWhenDue.js';
import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';
import { SqliteStateStore } from '../shared/store/sqlite/sqliteStateStore.js';
import type { StateStore } from '../shared/store/stateStore.js';
import { addDays, calendarDateIn } from '../shared/time/calendarDate.js';
import type { ScenarioOptions } from '../simulator/scenario.js';
import { startSimulator } from '../simulator/startSimulator.js';
import type { WorldChange } from '../simulator/worldChange.js';
import { type WorldName, worldPreset } from '../simulator/worldPresets.js';
import { detectionBound } from './detectionBound.js';
import {
  type BenchCycle,
  BREAKDOWN_PARTS,
  type Breakdown,
  breakDown,
  meanBreakdown,
  walkedPendingDates,
} from './detectionBreakdown.js';
import { dynamoLocalClient, startDynamoLocal } from './support/dynamoLocal.js';
import { percentile, round } from './support/figures.js';
import { VirtualTime } from './support/virtualTime.js';

/** A Tuesday afternoon in Lisbon: working hours, orders moving. */
const T0 = Date.UTC(2026, 2, 10, 14, 0, 0);
const MINUTE = 60_000;
/**
 * Changes of pending (placed, completed, canceled) count from the end of every organization's first cycle,
 * the silent baseline of pending: a restart pays its startup, and the bench says what it costs. Archivings
 * count only once every organization has swept each terminal listing once, since whatever that first sweep
 * finds is the silent baseline of the terminal orders (an archiving of an order never read before cannot be
 * told from history by any poller).
 */
/** The first minute of the measured half hour, told apart as well as counted. */
const STARTUP_MS = MINUTE;
/** Transitions in it are the ones counted. */
const MEASURED_MS = 30 * MINUTE;
/**
 * After it: polling goes on, so that what the sweep bounds is seen, but new transitions are not counted. An
 * order made and resolved between two walks of pending is seen by the sweep alone, up to a sweep period
 * later: a drain shorter than the slowest world's sweep counted it missed, not late.
 */
const DRAIN_MS = 40 * MINUTE;
const SWEPT = ['completed', 'canceled', 'archived'];
const SWEEP_INTERVAL_SECONDS = 300;
const LATENCY_MS = 100;
const REQUESTS_PER_MINUTE = 50;

type Runtime = 'local' | 'aws';

/**
 * A runtime and the interval its organizations get: the local runner's default (10 s), the AWS poller at
 * 10 s (what the bound is held to there), and the AWS poller at its default for the world's organizations.
 */
interface RunSettings {
  runtime: Runtime;
  /** Figures' suffix after the world's. */
  name: string;
  pollIntervalSeconds: number;
}

/**
 * The worlds: the canteen afternoon and the 20 organizations as the simulator presets them, and a busy
 * canteen: the same school at lunch, its pending listing changing about 11 times a minute (6 new orders,
 * 5 completed or canceled), four in five of them today's; and the busy canteen whose parents also edit
 * about one order in five they place (a line or a note: about 1.2 edits a minute), which only a read of
 * the order's page sees.
 */
interface BenchWorld {
  preset: WorldName;
  /** Figures' prefix. */
  name: string;
  scenario?: ScenarioOptions;
  /** Only these of RUNS (by name). @default all */
  runs?: readonly string[];
}

const BUSY_LUNCH: ScenarioOptions = {
  orderIntervalMs: 10_000,
  todayShare: 0.8,
  resolvePerMinute: 5,
  resolveTodayShare: 0.8,
};

const WORLDS: readonly BenchWorld[] = [
  { preset: 'canteen-afternoon', name: 'canteen' },
  {
    preset: 'canteen-afternoon',
    name: 'busy_canteen',
    scenario: BUSY_LUNCH,
  },
  {
    preset: 'canteen-afternoon',
    name: 'busy_canteen_edits',
    scenario: { ...BUSY_LUNCH, editsPerOrder: 0.2 },
    runs: ['local'],
  },
  { preset: 'shared-token', name: 'shared_token' },
];

/** `BENCH_BUDGET_RUNS=canteen_local,shared_token_aws` runs only those, while working on one of them. */
const ONLY = process.env.BENCH_BUDGET_RUNS?.split(',');

const RUNS: readonly RunSettings[] = [
  { runtime: 'local', name: 'local', pollIntervalSeconds: 10 },
  { runtime: 'aws', name: 'aws', pollIntervalSeconds: 10 },
  { runtime: 'aws', name: 'aws_default', pollIntervalSeconds: AWS_DEFAULT_POLL_INTERVAL_SECONDS },
];

export interface WorldFigures {
  missed: number;
  falseEvents: number;
  duplicateIds: number;
  transitions: number;
  requestsPerCycle: number;
  lowerBound: number;
  sweepRequestsPerMinute: number;
  detectionP50: number;
  detectionP95: number;
  /** p95 of the changes to orders for today's pickup, in the organization's zone. */
  todayP95: number;
  todayTransitions: number;
  /** p95 of the edits (lines, notes) of orders for today's pickup, which only a whole walk reads: 0 without. */
  todayEditsP95: number;
  /** p95 of the changes made in the first minute after the baseline. */
  startupP95: number;
  /**
   * Their p50: beside the half hour's p50, the like-for-like comparison, since the p95 of the 6 or 7 changes
   * of one minute is their slowest, which the half hour's p95 is not.
   */
  startupP50: number;
  /**
   * Requests a minute of the measured half hour, per organization, by listing: docs/detection.md's figure.
   * `today` is today's pending listing walked on its own, `window` the rest of the window, or the whole
   * window where today first is off.
   */
  minute: { today: number; window: number; lookups: number; sweep: number };
  archiveP95: number;
  maxSweepGapS: number;
  rateLimited: number;
  writesPerRequest: number | undefined;
  /** The p95 no poller could beat in this world (bench/detectionBound.ts). */
  boundS: number;
  periodBoundS: number;
  /** The world's own numbers the bound was derived from. */
  pendingPages: number;
  lookupsPerMinute: number;
  sweepPages: number;
  /** The longest any organization went between two complete walks of its pending window. */
  maxPendingWalkGapS: number;
  /** Where the time went, on average and over the slowest tenth of the transitions. */
  breakdownMean: Breakdown;
  breakdownTail: Breakdown;
}

interface Detection {
  type: string;
  at: number;
  organizationId: string;
}

export async function benchBudgetWorlds(): Promise<Record<string, number>> {
  const dynamo = await startDynamoLocal();
  const client = dynamoLocalClient(dynamo.endpoint);
  const figures: Record<string, number> = {};
  const all: Array<WorldFigures & { world: string }> = [];
  try {
    for (const world of WORLDS) {
      for (const run of RUNS) {
        const suffix = `${world.name}_${run.name}`;
        if (ONLY && !ONLY.includes(suffix)) continue;
        if (world.runs && !world.runs.includes(run.name)) continue;
        process.stderr.write(
          `bench:   ${world.name} with the ${run.runtime} runtime's settings, at most a cycle every ${run.pollIntervalSeconds} s…\n`,
        );
        const result = await runWorld(world, run, client);
        all.push({ ...result, world: world.name });
        Object.assign(figures, {
          [`budget_missed_transitions_${suffix}`]: result.missed,
          [`budget_false_events_${suffix}`]: result.falseEvents,
          [`budget_duplicate_ids_${suffix}`]: result.duplicateIds,
          [`budget_transitions_${suffix}`]: result.transitions,
          [`budget_requests_per_cycle_${suffix}`]: round(result.requestsPerCycle, 2),
          [`budget_requests_lower_bound_${suffix}`]: round(result.lowerBound, 2),
          [`budget_sweep_requests_per_minute_${suffix}`]: round(result.sweepRequestsPerMinute, 1),
          [`budget_detection_p50_s_${suffix}`]: round(result.detectionP50, 1),
          [`budget_detection_p95_s_${suffix}`]: round(result.detectionP95, 1),
          [`budget_today_p95_s_${suffix}`]: round(result.todayP95, 1),
          [`budget_today_transitions_${suffix}`]: result.todayTransitions,
          ...(result.todayEditsP95 > 0
            ? { [`budget_today_edits_p95_s_${suffix}`]: round(result.todayEditsP95, 1) }
            : {}),
          [`budget_startup_minute_p95_s_${suffix}`]: round(result.startupP95, 1),
          [`budget_startup_minute_p50_s_${suffix}`]: round(result.startupP50, 1),
          [`budget_minute_today_requests_${suffix}`]: round(result.minute.today, 1),
          [`budget_minute_window_requests_${suffix}`]: round(result.minute.window, 1),
          [`budget_minute_lookup_requests_${suffix}`]: round(result.minute.lookups, 1),
          [`budget_minute_sweep_requests_${suffix}`]: round(result.minute.sweep, 1),
          [`budget_archive_detection_p95_s_${suffix}`]: round(result.archiveP95, 1),
          [`budget_max_sweep_gap_s_${suffix}`]: round(result.maxSweepGapS, 1),
          [`budget_429s_${suffix}`]: result.rateLimited,
          [`budget_detection_bound_s_${suffix}`]: round(result.boundS, 1),
          [`budget_detection_p95_ratio_${suffix}`]: round(result.detectionP95 / result.boundS, 2),
          [`budget_bound_period_s_${suffix}`]: round(result.periodBoundS, 1),
          [`budget_bound_pending_pages_${suffix}`]: round(result.pendingPages, 2),
          [`budget_bound_lookups_per_minute_${suffix}`]: round(result.lookupsPerMinute, 2),
          [`budget_bound_sweep_pages_${suffix}`]: round(result.sweepPages, 1),
          [`budget_max_pending_walk_gap_s_${suffix}`]: round(result.maxPendingWalkGapS, 1),
          ...Object.fromEntries(
            BREAKDOWN_PARTS.flatMap((part) => [
              [`budget_time_${part}_mean_s_${suffix}`, round(result.breakdownMean[part], 1)],
              [`budget_time_${part}_tail_s_${suffix}`, round(result.breakdownTail[part], 1)],
            ]),
          ),
          ...(result.writesPerRequest === undefined
            ? {}
            : { [`dynamo_writes_per_api_request_${suffix}`]: round(result.writesPerRequest, 2) }),
        });
      }
    }
  } finally {
    client.destroy();
    await dynamo.stop();
  }
  const canteen = all.filter((run) => run.world === 'canteen');
  const shared = all.filter((run) => run.world === 'shared_token');
  const worst = (runs: WorldFigures[], pick: (run: WorldFigures) => number) => Math.max(0, ...runs.map(pick));
  return {
    budget_missed_transitions: all.reduce((sum, run) => sum + run.missed, 0),
    budget_false_events: all.reduce((sum, run) => sum + run.falseEvents, 0),
    budget_duplicate_ids: all.reduce((sum, run) => sum + run.duplicateIds, 0),
    budget_requests_per_cycle: round(
      worst(canteen, (run) => run.requestsPerCycle),
      2,
    ),
    budget_requests_lower_bound: round(
      canteen.find((run) => run.requestsPerCycle === worst(canteen, (r) => r.requestsPerCycle))?.lowerBound ??
        0,
      2,
    ),
    budget_detection_p50_s: round(
      worst(canteen, (run) => run.detectionP50),
      1,
    ),
    budget_detection_p95_s: round(
      worst(canteen, (run) => run.detectionP95),
      1,
    ),
    shared_token_max_sweep_gap_s: round(
      worst(shared, (run) => run.maxSweepGapS),
      1,
    ),
    shared_token_429s: shared.reduce((sum, run) => sum + run.rateLimited, 0),
    dynamo_writes_per_api_request: round(
      worst(
        all.filter((run) => run.writesPerRequest !== undefined),
        (run) => run.writesPerRequest ?? 0,
      ),
      2,
    ),
    budget_detection_p95_ratio: round(
      worst(all, (run) => run.detectionP95 / run.boundS),
      2,
    ),
    budget_max_pending_walk_gap_s: round(
      worst(all, (run) => run.maxPendingWalkGapS),
      1,
    ),
    ...figures,
  };
}

async function runWorld(world: BenchWorld, run: RunSettings, dynamo: DynamoDBClient): Promise<WorldFigures> {
  const { runtime } = run;
  const time = new VirtualTime(T0);
  const preset = worldPreset(world.preset);
  const sim = await startSimulator({
    world: world.preset,
    ...(world.scenario === undefined ? {} : { scenario: world.scenario }),
    // `BENCH_SEED=12` draws another world of the same kind: how far a figure moves from seed to seed.
    seed: Number(process.env.BENCH_SEED ?? 11),
    clock: time.clock,
    delay: time.sleep,
    requestsPerMinute: REQUESTS_PER_MINUTE,
    faults: { latencyMs: LATENCY_MS },
  });
  const changes: Array<WorldChange & { organizationId: string }> = [];
  for (const organization of sim.organizations)
    organization.world.onChange((change) => changes.push({ ...change, organizationId: organization.id }));

  const store = await openStore(runtime, dynamo, time, `${world.name}-${run.name}`);
  const budget = new RequestBudget({
    token: sim.token,
    requestsPerMinute: REQUESTS_PER_MINUTE,
    store: store.budgetCounters,
    clock: time.clock,
    sleep: time.sleep,
    ...(runtime === 'aws' ? { maxWaitMs: AWS_BUDGET_WAIT_MS } : {}),
  });
  const organizations = sim.organizations.map((simulated) => {
    const organization: PolledOrganization = {
      id: simulated.id,
      name: simulated.name,
      timeZone: preset.notifier.timeZone,
      window: preset.notifier.window,
      statuses: ['pending', 'completed', 'canceled', 'archived'],
      emitExisting: false,
      pollIntervalSeconds: run.pollIntervalSeconds,
      sweepIntervalSeconds: SWEEP_INTERVAL_SECONDS,
    };
    const client = new AdminApiClient({
      baseUrl: sim.baseUrl,
      organizationId: simulated.id,
      organizationName: simulated.name,
      token: sim.token,
      budget,
      clock: time.clock,
      sleep: time.sleep,
      // Each runtime's HTTP client: undici in the CLI, Node's fetch (the default) in the Lambdas.
      ...(runtime === 'local' ? { httpClient: createUndiciHttpClient } : {}),
    });
    return { organization, client, world: simulated.world };
  });
  const detected = new Map<string, Detection[]>();
  const ids = new Map<string, number>();
  const cycles: Array<BenchCycle & { lowerBound: number }> = [];
  const phase = {
    measuredFrom: Number.POSITIVE_INFINITY,
    sweptFrom: Number.POSITIVE_INFINITY,
    endAt: Number.POSITIVE_INFINITY,
  };
  const baselined = new Set<string>();
  /** The world's pending pages at each cycle's end, and its terminal pages when counting starts. */
  const pendingPages: number[] = [];
  let sweepPages = 0;
  const onReport = async (entry: (typeof organizations)[number], report: PollReport, startedAt: number) => {
    for (const event of report.events) {
      ids.set(event.id, (ids.get(event.id) ?? 0) + 1);
      const list = detected.get(event.subject) ?? [];
      list.push({ type: event.type, at: time.now, organizationId: entry.organization.id });
      detected.set(event.subject, list);
    }
    cycles.push({
      organizationId: entry.organization.id,
      report,
      startedAt,
      endedAt: time.now,
      lowerBound: lowerBoundOf(report, entry.world),
    });
    if (time.now >= phase.measuredFrom && time.now < phase.measuredFrom + MEASURED_MS)
      pendingPages.push(pagesFor(inWindow(entry.world, ['pending'])));
    if (report.outcome === 'polled' && report.ok) baselined.add(entry.organization.id);
    if (phase.measuredFrom === Number.POSITIVE_INFINITY && baselined.size === organizations.length) {
      phase.measuredFrom = time.now;
      phase.endAt = time.now + MEASURED_MS + DRAIN_MS;
    }
    if (phase.measuredFrom !== Number.POSITIVE_INFINITY && phase.sweptFrom === Number.POSITIVE_INFINITY) {
      if (
        await everySwept(
          store,
          organizations.map((o) => o.organization.id),
        )
      ) {
        phase.sweptFrom = time.now;
        sweepPages =
          organizations.reduce(
            (sum, { world: w }) =>
              sum + SWEPT.reduce((pages, status) => pages + pagesFor(inWindow(w, [status])), 0),
            0,
          ) / organizations.length;
      }
    }
  };
  const deps = (entry: (typeof organizations)[number]) => ({
    api: entry.client,
    store,
    clock: time.clock,
    runId: `bench-${runtime}`,
    baseUrl: sim.baseUrl,
    organizationsOnToken: organizations.length,
    // A figure measured past a failed cleanup would not be the world's: stop there.
    onCleanupFailure: (failure: CycleCleanupError) => {
      throw failure;
    },
    // The AWS poller's own: at its default interval a small organization is polled more often. The
    // `aws_default` run stands for a config that sets none; the `aws` run sets 10.
    ...(runtime === 'aws'
      ? {
          leastIntervalSeconds: (
            input: Omit<Parameters<typeof awsIntervalSeconds>[0], 'intervalIsAwsDefault'>,
          ) =>
            awsIntervalSeconds({
              ...input,
              intervalIsAwsDefault: input.pollIntervalSeconds === AWS_DEFAULT_POLL_INTERVAL_SECONDS,
            }),
        }
      : {}),
  });

  if (runtime === 'local') {
    const stop = new AbortController();
    const startedAt = new Map<string, number>();
    await runPollScheduler({
      organizations: organizations.map((entry) => ({
        ...entry,
        lockKey: budget.key,
        tokenRequestsPerMinute: budget.usablePerMinute,
      })),
      runCycle: (entry) => {
        startedAt.set(entry.organization.id, time.now);
        return pollOrganization(entry.organization, deps(entry));
      },
      onReport: async (entry, report) => {
        await onReport(entry, report, startedAt.get(entry.organization.id) ?? time.now);
        if (time.now >= phase.endAt) stop.abort();
      },
      onError: (_entry, error) => {
        throw error;
      },
      stop: stop.signal,
      clock: time.clock,
      sleep: async (ms) => {
        await time.sleep(ms);
        if (time.now >= phase.endAt) stop.abort();
      },
    });
  } else {
    // Each organization's triggers: its minute schedule, and the tick each cycle sends for the next.
    const triggers: Array<{ at: number; index: number; kind: 'schedule' | 'tick' }> = [];
    const schedule = (at: number, index: number, kind: 'schedule' | 'tick') => {
      triggers.push({ at, index, kind });
      triggers.sort((a, b) => a.at - b.at);
    };
    for (const index of organizations.keys()) schedule(T0, index, 'schedule');
    for (let trigger = triggers.shift(); trigger && trigger.at < phase.endAt; trigger = triggers.shift()) {
      time.now = Math.max(time.now, trigger.at);
      if (trigger.kind === 'schedule') schedule(trigger.at + MINUTE, trigger.index, 'schedule');
      const entry = organizations[trigger.index];
      if (!entry) continue;
      const startedAt = time.now;
      const result = await pollWhenDue(entry.organization, deps(entry));
      if (result.outcome !== 'polled') continue;
      await onReport(entry, result.report, startedAt);
      if (result.report.outcome !== 'skipped') {
        schedule(
          time.now + tickDelaySeconds(result.report.nextPollAt, time.now) * 1000,
          trigger.index,
          'tick',
        );
      }
    }
  }

  const measuredChanges = changes.filter(
    (change) => change.at >= phase.measuredFrom && change.at < phase.measuredFrom + MEASURED_MS,
  );
  const worldNumbers = {
    pendingPages: pendingPages.reduce((sum, pages) => sum + pages, 0) / Math.max(1, pendingPages.length),
    // Every order that leaves pending for another status is told apart by one look-up at the least.
    lookupsPerMinute:
      measuredChanges.filter((change) => change.kind === 'status' && change.from === 'pending').length /
      organizations.length /
      (MEASURED_MS / MINUTE),
    sweepPages,
  };
  const bound = detectionBound({
    usablePerMinute: budget.usablePerMinute,
    organizations: organizations.length,
    ...worldNumbers,
    sweepIntervalSeconds: SWEEP_INTERVAL_SECONDS,
    pollIntervalSeconds: run.pollIntervalSeconds,
    latencyMs: LATENCY_MS,
    deliveryS: 0,
  });
  const figures: WorldFigures = {
    ...measure(
      phase,
      (at) => calendarDateIn(preset.notifier.timeZone, at),
      changes,
      detected,
      ids,
      cycles,
      sim.requestLog.all().filter((r) => r.status === 429).length,
    ),
    boundS: bound.boundS,
    periodBoundS: bound.periodS,
    ...worldNumbers,
  };
  if (store instanceof DynamoStateStore) {
    const byOperation = store.metrics.byOperation;
    const bookkeeping =
      byOperation.lease.writeRequests +
      byOperation.savePollState.writeRequests +
      byOperation.budget.writeRequests;
    const requests = cycles.reduce((sum, cycle) => sum + cycle.report.requests, 0);
    figures.writesPerRequest = bookkeeping / Math.max(1, requests);
  }
  for (const entry of organizations) await entry.client.close();
  await sim.close();
  if (store instanceof SqliteStateStore) store.close();
  return figures;
}

async function openStore(
  runtime: Runtime,
  dynamo: DynamoDBClient,
  time: VirtualTime,
  world: string,
): Promise<StateStore> {
  if (runtime === 'local') return new SqliteStateStore({ path: ':memory:', clock: time.clock });
  const tableName = `bench-budget-${world}`;
  await dynamo.send(new CreateTableCommand(createStateTableInput(tableName)));
  return new DynamoStateStore({ client: dynamo, tableName, clock: time.clock });
}

const EVENT_OF_STATUS: Record<string, string> = {
  completed: 'order.completed',
  canceled: 'order.canceled',
  archived: 'order.archived',
  pending: 'order.status_changed',
};

/**
 * The least any correct poller needs for the detection part of a cycle: every page of the pending
 * listings as the server counted them, and one request per distinct (status, pickup date, establishment)
 * the orders that left pending went to. The slow sweep is counted apart.
 */
function lowerBoundOf(report: PollReport, world: { getOrder(uuid: string): Order | undefined }): number {
  const pending = report.listings
    .filter((listing) => listing.purpose === 'detect' && listing.trustworthy)
    .reduce((sum, listing) => sum + pagesFor(listing.orders), 0);
  const groups = new Set<string>();
  for (const order of report.vanished) {
    const now = world.getOrder(order.uuid);
    if (now) groups.add(`${now.status.value}|${now.pickup_at}|${now.establishment.uuid}`);
  }
  return pending + groups.size;
}

/** Whether every organization has swept each terminal listing once: what came before is the baseline. */
async function everySwept(store: StateStore, organizationIds: readonly string[]): Promise<boolean> {
  for (const id of organizationIds) {
    const state = await store.loadPollState(id);
    if (!SWEPT.every((status) => state?.sweep.sweptAt[status] !== undefined)) return false;
  }
  return true;
}

/** The event a change of the world should give, if any (the contract has none for a date or counter move). */
function eventTypeOf(change: WorldChange): string | undefined {
  if (change.kind === 'created') return 'order.created';
  if (change.kind === 'items' || change.kind === 'notes' || change.kind === 'item_notes')
    return 'order.updated';
  return change.kind === 'status' ? EVENT_OF_STATUS[change.to ?? ''] : undefined;
}

function measure(
  phase: { measuredFrom: number; sweptFrom: number },
  todayAt: (at: number) => string,
  changes: ReadonlyArray<WorldChange & { organizationId: string }>,
  detected: ReadonlyMap<string, Detection[]>,
  ids: ReadonlyMap<string, number>,
  cycles: ReadonlyArray<BenchCycle & { lowerBound: number }>,
  rateLimited: number,
): Omit<WorldFigures, 'boundS' | 'periodBoundS' | 'pendingPages' | 'lookupsPerMinute' | 'sweepPages'> {
  const { measuredFrom } = phase;
  const measuredTo = measuredFrom + MEASURED_MS;
  const expected = new Map<string, Set<string>>();
  for (const change of changes) {
    const type = eventTypeOf(change);
    if (!type) continue;
    const set = expected.get(change.orderUuid) ?? new Set<string>();
    set.add(type);
    expected.set(change.orderUuid, set);
  }
  let missed = 0;
  let transitions = 0;
  const delays: number[] = [];
  const todayDelays: number[] = [];
  const todayEditDelays: number[] = [];
  const startupDelays: number[] = [];
  const archiveDelays: number[] = [];
  const breakdowns: Array<{ delay: number; breakdown: Breakdown }> = [];
  for (const change of changes) {
    if (change.at < measuredFrom || change.at >= measuredTo) continue;
    const type = eventTypeOf(change);
    if (!type) continue;
    if (type === 'order.archived' && change.at < phase.sweptFrom) continue;
    transitions += 1;
    // An edit is told by the first event of its order after it, whichever: an order seen first, or seen
    // completed, after an edit carries the edit in its whole order.
    const seen = detected
      .get(change.orderUuid)
      ?.find(
        (detection) => (type === 'order.updated' || detection.type === type) && detection.at >= change.at,
      );
    if (!seen) {
      missed += 1;
      continue;
    }
    const delay = (seen.at - change.at) / 1000;
    (type === 'order.archived' ? archiveDelays : delays).push(delay);
    if (type === 'order.archived') continue;
    if (change.pickupDate === todayAt(change.at)) {
      todayDelays.push(delay);
      if (type === 'order.updated') todayEditDelays.push(delay);
    }
    if (change.at < measuredFrom + STARTUP_MS) startupDelays.push(delay);
    const breakdown = breakDown(
      {
        organizationId: change.organizationId,
        orderUuid: change.orderUuid,
        pickupDate: change.pickupDate,
        changedAt: change.at,
        detectedAt: seen.at,
      },
      cycles,
      LATENCY_MS,
    );
    if (breakdown) breakdowns.push({ delay: seen.at - change.at, breakdown });
  }
  breakdowns.sort((a, b) => a.delay - b.delay);
  const tail = breakdowns.slice(Math.floor(breakdowns.length * 0.9));
  let falseEvents = 0;
  for (const [uuid, detections] of detected) {
    for (const detection of detections) if (!expected.get(uuid)?.has(detection.type)) falseEvents += 1;
  }
  const measured = cycles.filter(
    (cycle) =>
      cycle.report.outcome === 'polled' && cycle.endedAt >= measuredFrom && cycle.endedAt < measuredTo,
  );
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const sweepRequests = measured.reduce((sum, cycle) => sum + cycle.report.requestsFor.sweep, 0);
  const organizations = new Set(cycles.map((cycle) => cycle.organizationId)).size;
  const perMinute = (requests: number) => requests / (MEASURED_MS / MINUTE) / Math.max(1, organizations);
  const pendingPages = (today: boolean) =>
    measured.reduce(
      (sum, cycle) =>
        sum +
        cycle.report.listings
          .filter(
            (listing) =>
              listing.purpose === 'detect' &&
              (listing.startDate === listing.endDate && listing.startDate === todayAt(cycle.startedAt)) ===
                today,
          )
          .reduce((pages, listing) => pages + listing.pages, 0),
      0,
    );
  let maxGap = 0;
  const lastSuccess = new Map<string, number>();
  for (const cycle of cycles) {
    if (cycle.report.outcome !== 'polled' || !cycle.report.ok) continue;
    const previous = lastSuccess.get(cycle.organizationId);
    if (previous !== undefined && cycle.endedAt >= measuredFrom)
      maxGap = Math.max(maxGap, cycle.endedAt - previous);
    lastSuccess.set(cycle.organizationId, cycle.endedAt);
  }
  // The longest any pickup date of the window went without a complete walk of pending: with today first
  // the window is walked a part a cycle, so no one cycle need walk it whole.
  let maxWalkGap = 0;
  const lastWalk = new Map<string, number>();
  for (const cycle of cycles) {
    for (const date of walkedPendingDates(cycle.report)) {
      const key = `${cycle.organizationId}|${date}`;
      const previous = lastWalk.get(key);
      if (previous !== undefined && cycle.startedAt >= measuredFrom && cycle.startedAt < measuredTo)
        maxWalkGap = Math.max(maxWalkGap, cycle.startedAt - previous);
      lastWalk.set(key, cycle.startedAt);
    }
  }
  return {
    missed,
    falseEvents,
    duplicateIds: [...ids.values()].filter((count) => count > 1).length,
    transitions,
    requestsPerCycle: mean(
      measured.map((cycle) => cycle.report.requestsFor.detect + cycle.report.requestsFor.resolve),
    ),
    lowerBound: mean(measured.map((cycle) => cycle.lowerBound)),
    sweepRequestsPerMinute: sweepRequests / (MEASURED_MS / MINUTE),
    detectionP50: percentile(delays, 0.5),
    detectionP95: percentile(delays, 0.95),
    todayP95: percentile(todayDelays, 0.95),
    todayTransitions: todayDelays.length,
    todayEditsP95: todayEditDelays.length === 0 ? 0 : percentile(todayEditDelays, 0.95),
    startupP95: percentile(startupDelays, 0.95),
    startupP50: percentile(startupDelays, 0.5),
    minute: {
      today: perMinute(pendingPages(true)),
      window: perMinute(pendingPages(false)),
      lookups: perMinute(measured.reduce((sum, cycle) => sum + cycle.report.requestsFor.resolve, 0)),
      sweep: perMinute(sweepRequests),
    },
    archiveP95: percentile(archiveDelays, 0.95),
    maxSweepGapS: maxGap / 1000,
    rateLimited,
    writesPerRequest: undefined,
    maxPendingWalkGapS: maxWalkGap / 1000,
    breakdownMean: meanBreakdown(breakdowns.map(({ breakdown }) => breakdown)),
    breakdownTail: meanBreakdown(tail.map(({ breakdown }) => breakdown)),
  };
}

/** Orders of the world in any of `statuses` whose pickup date is in the watched window (today ±3 days). */
function inWindow(
  world: { today(): string; viewOrders(keep: (order: Order) => boolean): readonly Order[] },
  statuses: readonly string[],
): number {
  const today = world.today();
  const start = addDays(today, -3);
  const end = addDays(today, 3);
  return world.viewOrders(
    (order) => statuses.includes(order.status.value) && order.pickup_at >= start && order.pickup_at <= end,
  ).length;
}
