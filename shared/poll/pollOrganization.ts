// The poll cycle of one organization, the one use case the Lambda poller and the CLI share. It reserves the
// cycle's requests in one go, walks pending, looks up the orders that left it, spends what is left on a
// slice of the slow terminal sweep, diffs and commits each change with its events, and decides when the
// next cycle is due. The decisions are the pure planners' in shared/detect; this only runs them.
import { AdminApiError, NetworkError, RequestBudgetExhaustedError } from '../api/errors.js';
import type { ListingProblem } from '../api/listingProblem.js';
import type { OrderQuery } from '../api/orderQuery.js';
import type { Listing, ListingWalk } from '../api/pagination.js';
import { type Establishment, ORDER_STATUSES, type Order, type OrderStatus } from '../api/schemas.js';
import {
  coverageKey,
  findVanished,
  isMissingEverywhere,
  isNews,
  isTrustworthy,
  type SightingHistory,
  searchedStatuses,
  type WalkResult,
} from '../detect/absence.js';
import { announcedEvents } from '../detect/announcedEvents.js';
import { diffOrder } from '../detect/diffOrder.js';
import { covers, type ListingSpec, type PlannedWalk, type WalkPurpose } from '../detect/listingSpec.js';
import { gapFor, type Pacing, pacePoll } from '../detect/pacePoll.js';
import { type CadenceMode, type CadencePlan, planCadence } from '../detect/planCadence.js';
import { planDetection, windowDates } from '../detect/planDetection.js';
import {
  canceledBeforeClosing,
  type DueSummary,
  type OrderSighting,
  planPrepSummaries,
  prepSummaryKey,
} from '../detect/planPrepSummaries.js';
import { planResolutionRound, type VanishedOrder } from '../detect/planResolution.js';
import { planSweep, sweepPages, TERMINAL_STATUSES } from '../detect/planSweep.js';
import type { Snapshot } from '../detect/snapshot.js';
import { transitionTime } from '../detect/transitionTime.js';
import { trackUnreadable } from '../detect/unreadableOrders.js';
import { buildPrepSummary } from '../events/buildPrepSummary.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { OrderEvent } from '../events/orderEvent.js';
import type { PrepSummaryEvent } from '../events/prepSummaryEvent.js';
import { initialPollState, type PollState, type StateStore } from '../store/stateStore.js';
import { addDays, calendarDateIn } from '../time/calendarDate.js';
import { zonedIsoTime } from '../time/zonedTime.js';
import { describeLeaseOwner } from './localRunId.js';
import { claimLease, DEFAULT_LEASE_TERMS, keepLeaseUntil, type LeaseTerms } from './organizationLease.js';

/** The token's request budget as a cycle spends it; RequestBudget is one. */
export interface CycleBudget {
  /** Requests per minute the token may use, safety margin taken off. */
  readonly usablePerMinute: number;
  /** Adds between `atLeast` and `atMost` requests to the reservation, waiting a while for `atLeast`. */
  reserve(atLeast: number, atMost: number): Promise<number>;
  /** Reserved requests not yet sent. */
  readonly reserved: number;
  /** Gives back what was reserved and not sent. */
  release(): Promise<void>;
  /** How much later than reserved a reservation of `requests` counts them. */
  holdMsFor(requests: number): number;
  remaining(): Promise<number>;
}

/** The Admin API as the poll cycle needs it; AdminApiClient is one. */
export interface OrdersSource {
  listOrders(query: OrderQuery, walk?: ListingWalk<Order>): Promise<Listing<Order>>;
  /** Their closing times drive the prep summaries; kept in the poll state, refreshed now and then. */
  listEstablishments(walk?: ListingWalk<Establishment>): Promise<Listing<Establishment>>;
  readonly budget: CycleBudget;
  readonly requestCount: number;
}

export interface PolledOrganization {
  id: string;
  name: string;
  timeZone: string;
  window: { daysBack: number; daysAhead: number };
  /** Statuses whose transitions are announced. */
  statuses: readonly OrderStatus[];
  establishments?: readonly string[] | undefined;
  emitExisting: boolean;
  /** The shortest gap between two cycles. */
  pollIntervalSeconds: number;
  /** How long a full sweep of the terminal listings should take. */
  sweepIntervalSeconds: number;
  /** `auto` follows the establishments' closing times and working days (planCadence). @default 'auto' */
  cadence?: 'auto' | 'fixed' | undefined;
  /** With `auto`, the gap on days no establishment works. @default 15 */
  coldSweepMinutes?: number | undefined;
}

export interface PollDependencies {
  api: OrdersSource;
  store: StateStore;
  clock: () => number;
  /** Names this run in the lease. */
  runId: string;
  /** CloudEvents `source` prefix: the API base URL. */
  baseUrl: string;
  /** Organizations sharing this organization's token: its share of the budget. @default 1 */
  organizationsOnToken?: number;
  /** How this run holds the organization's lease. @default DEFAULT_LEASE_TERMS: for the cycle, 5 minutes */
  lease?: LeaseTerms;
  /** Days a snapshot outlives its pickup date's exit from the window. @default 2 */
  snapshotGraceDays?: number;
  /**
   * A failed listing's line in `failures` (and so the poll state's last error), naming the organization.
   * @default the error's own message
   */
  describeFailure?: (error: Error) => string;
}

export interface ListingReport {
  key: string;
  purpose: WalkPurpose;
  status: string;
  startDate: string;
  endDate: string;
  /** Walked completely (no malformed record) and consistently. */
  trustworthy: boolean;
  orders: number;
  pages: number;
  error?: string;
}

export interface PollReport {
  organization: { id: string; name: string };
  /**
   * `skipped`: another run holds the lease. `deferred`: the token's budget could not pay for pending now;
   * not a failure, the cycle comes again when it can.
   */
  outcome: 'polled' | 'skipped' | 'deferred';
  reason?: string;
  /** Skipped: the run holding the lease, when known. */
  leaseHolder?: string;
  /** The ended run whose lease this cycle took over instead of waiting it out. */
  leaseTakenOverFrom?: string;
  /** Every walk started was fetched without error. */
  ok: boolean;
  requests: number;
  /** Requests by what they were for: pending, look-ups of vanished orders, the terminal sweep. */
  requestsFor: Record<WalkPurpose, number> & {
    /** GET /establishments, when the cache was refreshed this cycle. */
    establishments?: number;
  };
  budgetRemaining: number;
  listings: ListingReport[];
  /** Walks left for a later cycle because the budget did not stretch to them. */
  deferred: string[];
  ordersSeen: number;
  /** Orders that left a completely walked pending listing this cycle, as last seen. */
  vanished: VanishedOrder[];
  /** Events newly recorded this cycle, in commit order. */
  events: NotifierEvent[];
  /**
   * When each new event's change happened at the source (epoch ms), by event id, for the detection
   * latency. Absent where the order does not tell, and for orders that existed before they could be seen
   * (announced only because of emitExisting): their age is not a delay in detecting them.
   */
  sourceTimes: Record<string, number>;
  /** Orders another run changed first; they are looked at again next cycle. */
  conflicts: number;
  /** One line per failure, naming the listing and the cause. */
  failures: string[];
  /**
   * What was wrong with listings fetched without error, every one of them: skipped records, inconsistent
   * walks. Not failures: the cycle did what it could with the rest, and drew no conclusion from absence.
   */
  problems: ListingProblem[];
  /** When the next cycle is due (epoch ms), from the pace. */
  nextPollAt: number;
  /** How closely the cycle's cadence watched (planCadence); absent when no cycle ran. */
  cadence?: CadenceMode;
}

/** How old the establishments cache may grow before a cycle reads GET /establishments again. */
const ESTABLISHMENTS_MAX_AGE_MS = 60 * 60_000;
/**
 * An order naming an establishment the cache lacks refreshes it at once, but not more often than this:
 * an establishment the listing does not show (deleted, hidden) must not cost a request every cycle.
 */
const ESTABLISHMENTS_MIN_AGE_MS = 60_000;
/** The report's name for the establishments listing (deferred, failures). */
const ESTABLISHMENTS_LISTING = 'establishments';

/** The largest share of a minute's budget one walk may need: larger listings are split. */
const MAX_WALK_SHARE = 0.5;
/** After a cycle deferred for budget, how soon the next one is due. */
const DEFERRED_RETRY_MS = 5_000;
/** Weight of the newest cycle in the moving averages of a cycle's requests. */
const AVERAGE_WEIGHT = 0.2;
/** The cold gap of an organization that sets no coldSweepMinutes, as the config's default. */
const DEFAULT_COLD_SWEEP_MINUTES = 15;
/** Sweep pages owed are capped, so a long deferral does not turn into one long sweep burst. */
const MAX_SWEEP_CREDIT_CYCLES = 1.5;

export async function pollOrganization(
  organization: PolledOrganization,
  deps: PollDependencies,
): Promise<PollReport> {
  const startedAt = deps.clock();
  const requestsBefore = deps.api.requestCount;
  const report: PollReport = {
    organization: { id: organization.id, name: organization.name },
    outcome: 'polled',
    ok: true,
    requests: 0,
    requestsFor: { detect: 0, resolve: 0, sweep: 0 },
    budgetRemaining: 0,
    listings: [],
    deferred: [],
    ordersSeen: 0,
    vanished: [],
    events: [],
    sourceTimes: {},
    conflicts: 0,
    failures: [],
    problems: [],
    nextPollAt: startedAt + organization.pollIntervalSeconds * 1000,
  };
  const lease = deps.lease ?? DEFAULT_LEASE_TERMS;
  const claim = await claimLease(deps.store, organization.id, deps.runId, startedAt, lease);
  if (!claim.held) {
    const holder = claim.holder === undefined ? '' : `, ${describeLeaseOwner(claim.holder)},`;
    return {
      ...report,
      outcome: 'skipped',
      reason: `another run${holder} is polling this organization`,
      ...(claim.holder === undefined ? {} : { leaseHolder: claim.holder }),
    };
  }
  if (claim.takenOverFrom !== undefined) report.leaseTakenOverFrom = claim.takenOverFrom;
  const cycle = new Cycle(organization, deps, startedAt, report);
  try {
    await cycle.run();
    if (lease.heldFor === 'run') {
      await keepLeaseUntil(deps.store, organization.id, deps.runId, deps.clock(), report.nextPollAt, lease);
    }
  } finally {
    await deps.api.budget.release();
    // A lease held for the cycle normally goes back in the same write as the poll state; only a cycle that
    // failed before saving gives it back on its own. A run that keeps it keeps it even then: it is alive.
    if (!cycle.saved && lease.heldFor === 'cycle') await deps.store.releaseLease(organization.id, deps.runId);
  }
  report.requests = deps.api.requestCount - requestsBefore;
  report.budgetRemaining = await deps.api.budget.remaining();
  return report;
}

interface Observation {
  order: Order;
  /** Whether a new order is announced rather than recorded silently. */
  news: boolean;
  /** A new order that existed before we could see it: announced, if at all, only because of emitExisting. */
  preexisting: boolean;
}

class Cycle {
  readonly #observations = new Map<string, Observation>();
  readonly #results: WalkResult[] = [];
  /** Vanished orders found in no status at all. */
  readonly #missing: VanishedOrder[] = [];
  #state: PollState = initialPollState('');
  #snapshots = new Map<string, Snapshot>();
  #window = { startDate: '', endDate: '' };
  #stop = false;
  /** The poll state was saved, and a lease held for the cycle given back with it. */
  saved = false;
  /** The sweep's baseline pass did not fit this cycle's reservation. */
  #baselineDeferred = false;

  constructor(
    readonly organization: PolledOrganization,
    readonly deps: PollDependencies,
    readonly startedAt: number,
    readonly report: PollReport,
  ) {}

  get #budget(): CycleBudget {
    return this.deps.api.budget;
  }

  async run(): Promise<void> {
    const { organization, deps, startedAt, report } = this;
    const requestsBefore = deps.api.requestCount;
    this.#state = adoptLegacyCoverage(
      (await deps.store.loadPollState(organization.id)) ?? initialPollState(organization.id),
    );
    this.#snapshots = await deps.store.loadSnapshots(organization.id);
    const state = this.#state;
    const cadence = this.#cadence();
    report.cadence = cadence.mode;
    this.#window = windowDates(calendarDateIn(organization.timeZone, startedAt), organization.window);
    const history: SightingHistory = {
      pendingCoveredAt: { ...state.pendingCoveredAt },
      watchingSince: state.watchingSince,
    };

    const detection = planDetection({
      today: calendarDateIn(organization.timeZone, startedAt),
      window: organization.window,
      establishments: organization.establishments,
      knownSizes: state.listingSizes,
      pendingByDate: pendingByDate(this.#snapshots, this.#window),
      lastWalkedAt: state.lastFetchedAt,
      maxWalkPages: Math.max(1, Math.floor(this.#budget.usablePerMinute * MAX_WALK_SHARE)),
    });
    const detectionRequests = detection.reduce((sum, walk) => sum + walk.estimatedRequests, 0);
    const pace = this.#pace(detectionRequests + state.resolutionRequests, cadence);
    const sweepBudget = Math.min(
      state.sweepCredit + pace.sweepPagesPerCycle,
      Math.max(1, pace.sweepPagesPerCycle * MAX_SWEEP_CREDIT_CYCLES),
    );
    // A baseline pass of the sweep is paid whole or not started: it is asked for with the rest.
    const nextSweep = this.#planSweep(Number.POSITIVE_INFINITY);
    const baselinePages =
      nextSweep && nextSweep.walk.maxPages === undefined ? nextSweep.walk.estimatedRequests : 0;
    const planned =
      detectionRequests +
      Math.ceil(state.resolutionRequests) +
      Math.max(baselinePages, Math.floor(sweepBudget));
    // Pending must fit before anything is walked, so the cycle waits, if it must, before its first request
    // rather than in the middle of a walk; the sweep gets what else the window has room for.
    const granted = await this.#budget.reserve(detectionRequests, planned);
    if (granted === 0) {
      report.outcome = 'deferred';
      report.reason = 'the token has no request budget left for pending now';
      report.deferred = detection.map((walk) => walk.key);
      // Soon, not a whole interval later: the window frees a little every second, and the organization
      // has already waited its turn once.
      report.nextPollAt = deps.clock() + Math.min(pace.intervalMs, DEFERRED_RETRY_MS);
      await this.#save(report.nextPollAt);
      return;
    }

    for (const walk of detection) await this.#walk(walk);
    await this.#resolve();
    // Before the sweep, which fills what room is left: the cache's request is taken from that room.
    await this.#refreshEstablishments();
    // The sweep fills the cycle up to what a cycle is planned to cost, so that cycles cost alike and the
    // gaps between them stay even; when look-ups took its room, what it is owed waits for a later cycle.
    const room = Math.max(0, planned - (deps.api.requestCount - requestsBefore));
    const swept = await this.#sweep(Math.min(sweepBudget, room));
    state.sweepCredit = Math.max(0, sweepBudget - swept);

    this.#judgeNews(history);
    await this.#flush();
    this.#recordCoverage();
    await this.#recordPrepSummaries();
    state.unreadable = trackUnreadable(state.unreadable, {
      problems: report.problems,
      readWell: new Set(this.#observations.keys()),
      now: startedAt,
    });
    report.ordersSeen = this.#observations.size;
    // The average, not this cycle's cost alone: a burst of look-ups must not push the next cycle away.
    const spent = deps.api.requestCount - requestsBefore;
    state.cycleRequests = movingAverage(state.cycleRequests, spent);
    // A baseline pass left for want of room: the next cycle comes once the window can hold it.
    const owed = this.#baselineDeferred ? baselinePages : 0;
    // Due by the cadence's next change at the latest: a cold gap never runs into a hot window.
    report.nextPollAt = Math.min(
      startedAt + gapFor(pace, state.cycleRequests + owed),
      cadence.changesAt ?? Number.POSITIVE_INFINITY,
    );
    await this.#save(report.nextPollAt);
  }

  #cadence(): CadencePlan {
    const { organization, startedAt } = this;
    return planCadence({
      cadence: organization.cadence ?? 'auto',
      establishments: this.#state.establishments?.records ?? null,
      polled: organization.establishments,
      timeZone: organization.timeZone,
      now: startedAt,
      normalIntervalMs: organization.pollIntervalSeconds * 1000,
      coldIntervalMs: (organization.coldSweepMinutes ?? DEFAULT_COLD_SWEEP_MINUTES) * 60_000,
    });
  }

  #pace(detectionRequests: number, cadence: CadencePlan): Pacing {
    const { organization, deps } = this;
    const sweepPeriodMs = organization.sweepIntervalSeconds * 1000;
    return pacePoll({
      usablePerMinute: this.#budget.usablePerMinute,
      organizationsOnToken: deps.organizationsOnToken ?? 1,
      detectionRequests,
      holdMs: this.#budget.holdMsFor(detectionRequests),
      sweepPages: sweepPages({
        statuses: sweptStatuses(organization),
        ...this.#window,
        establishments: organization.establishments,
        knownSizes: this.#state.listingSizes,
      }),
      // A cold cycle carries a whole sweep: cycles are too far apart for slices of it.
      sweepPeriodMs: cadence.mode === 'cold' ? Math.max(sweepPeriodMs, cadence.minIntervalMs) : sweepPeriodMs,
      minIntervalMs: cadence.minIntervalMs,
    });
  }

  /** Makes sure `pages` more requests are reserved, waiting a while for them; false when they are not to be had. */
  async #afford(pages: number): Promise<boolean> {
    const missing = pages - this.#budget.reserved;
    if (missing <= 0) return true;
    return (await this.#budget.reserve(missing, missing)) > 0;
  }

  /**
   * Walks one listing within the budget: a walk that turns out longer than reserved gets the rest reserved
   * before its second page, or stops there, keeping the size it learned for the next plan.
   */
  async #walk(
    walk: PlannedWalk,
    options: { foundEnough?: (records: readonly Order[]) => boolean } = {},
  ): Promise<WalkResult> {
    const { report, deps } = this;
    const requestsBefore = deps.api.requestCount;
    const result: WalkResult = { walk };
    if (this.#stop || !(await this.#afford(1))) {
      report.deferred.push(walk.key);
      return result;
    }
    const lastAllowed =
      walk.maxPages === undefined ? Number.POSITIVE_INFINITY : walk.fromPage + walk.maxPages - 1;
    try {
      result.listing = await deps.api.listOrders(queryOf(walk.listing), {
        listing: walk.key,
        fromPage: walk.fromPage,
        ...(options.foundEnough ? { foundEnough: options.foundEnough } : {}),
        mayContinue: async ({ page, lastPage }) => {
          if (page > lastAllowed) return false;
          return this.#afford(Math.min(lastPage ?? page, lastAllowed) - page + 1);
        },
      });
    } catch (error) {
      result.error = error as Error;
      // A rejected token or organization, an unreachable API or an empty budget fails every other
      // listing the same way.
      if (failsEveryListing(error)) this.#stop = true;
    }
    report.requestsFor[walk.purpose] += deps.api.requestCount - requestsBefore;
    this.#record(result);
    return result;
  }

  #record(result: WalkResult): void {
    const { walk, listing, error } = result;
    const { report, organization } = this;
    const trustworthy = isTrustworthy(result);
    const listingReport: ListingReport = {
      key: walk.key,
      purpose: walk.purpose,
      status: walk.listing.status,
      startDate: walk.listing.startDate,
      endDate: walk.listing.endDate,
      trustworthy,
      orders: listing?.records.length ?? 0,
      pages: listing?.pages ?? 0,
    };
    report.listings.push(listingReport);
    this.#results.push(result);
    if (!listing) {
      listingReport.error = error?.message ?? 'failed';
      report.ok = false;
      report.failures.push(
        error
          ? (this.deps.describeFailure?.(error) ?? error.message)
          : `${organization.name}: listing ${walk.key} failed`,
      );
      return;
    }
    report.problems.push(...listing.problems);
    if (listing.stoppedEarly && walk.purpose === 'detect') report.deferred.push(walk.key);
    // Orders seen are facts even in a walk cut short; only conclusions from absence need it whole.
    for (const order of listing.records) this.#observe(order);
    // Only whole-window listings and pending's parts are planned from remembered sizes; look-ups and sweep
    // parts are sized from the snapshots, and remembering each would grow the state.
    if (walk.listing.kind === 'narrow' || (walk.listing.kind === 'part' && walk.purpose === 'sweep')) return;
    if (listing.total !== undefined) this.#state.listingSizes[walk.key] = listing.total;
    if (trustworthy) this.#state.lastFetchedAt[walk.key] = this.startedAt;
  }

  /** Keeps the most recent sighting when an order moved between two listings during the cycle. */
  #observe(order: Order): void {
    const seen = this.#observations.get(order.uuid);
    if (!seen || seen.order.updated_at < order.updated_at) {
      this.#observations.set(order.uuid, { order, news: false, preexisting: false });
    }
  }

  /**
   * Looks for the orders that left a pending listing walked completely, round by round, the likeliest
   * status first: one narrow listing per status, pickup date and establishment.
   */
  async #resolve(): Promise<void> {
    const { report } = this;
    const vanished = findVanished(this.#snapshots, new Set(this.#observations.keys()), this.#results);
    report.vanished = vanished;
    const searched = searchedStatuses(vanished, this.#results, ORDER_STATUSES);
    // Where each order was looked for this cycle, walked completely or not: a look-up that failed is not
    // asked again in the next round (it would fail the same way), and the order's next status gets its turn.
    // Only `searched` counts towards concluding that the order is missing.
    const tried = new Map([...searched].map(([uuid, statuses]) => [uuid, new Set(statuses)]));
    let unresolved = vanished;
    for (let round = 0; round < ORDER_STATUSES.length && unresolved.length > 0 && !this.#stop; round += 1) {
      const walks = planResolutionRound({
        unresolved,
        searched: tried,
        searchedBefore: new Map(Object.entries(this.#state.lookups)),
        sizeOf: (listing) => this.#knownOrders(listing.status, listing.startDate, listing.establishment),
      });
      if (walks.length === 0) break;
      for (const walk of walks) {
        const sought = unresolved.filter((order) => covers(walk.listing, walk.listing.status, order));
        for (const order of sought) tried.get(order.uuid)?.add(walk.listing.status);
        const result = await this.#walk(walk, {
          foundEnough: (records) =>
            sought.every((order) => records.some((record) => record.uuid === order.uuid)),
        });
        if (!isTrustworthy(result)) continue;
        for (const order of sought) searched.get(order.uuid)?.add(walk.listing.status);
      }
      unresolved = unresolved.filter((order) => !this.#observations.has(order.uuid));
    }
    const state = this.#state;
    state.resolutionRequests = movingAverage(state.resolutionRequests, report.requestsFor.resolve);
    // Only orders still unresolved are remembered, so the record stays as small as the backlog.
    state.lookups = Object.fromEntries(
      unresolved.map((order) => [
        order.uuid,
        [...new Set([...(state.lookups[order.uuid] ?? []), ...(searched.get(order.uuid) ?? [])])],
      ]),
    );
    // Absent wherever it could be: it left the window or was deleted. Remember that once, so it is not
    // looked for again every cycle, and let the TTL forget it.
    for (const order of unresolved) {
      if (isMissingEverywhere(searched.get(order.uuid), ORDER_STATUSES)) this.#missing.push(order);
    }
  }

  /** Orders we know of in `status` on `date`, at `establishment` or at any. */
  #knownOrders(status: string, date: string, establishment: string | undefined): number {
    let count = 0;
    for (const snapshot of this.#snapshots.values()) {
      if (
        snapshot.missingSince === null &&
        snapshot.status === status &&
        snapshot.pickupDate === date &&
        (establishment === undefined || snapshot.establishmentUuid === establishment)
      ) {
        count += 1;
      }
    }
    return count;
  }

  #planSweep(pages: number): ReturnType<typeof planSweep> {
    const state = this.#state;
    return planSweep({
      statuses: sweptStatuses(this.organization),
      ...this.#window,
      establishments: this.organization.establishments,
      progress: state.sweep,
      sweptAt: state.sweptAt,
      knownSizes: state.listingSizes,
      pages,
      now: this.startedAt,
    });
  }

  /**
   * This cycle's pages of the terminal sweep, from what is left of the reservation; returns the requests
   * made. A baseline pass goes only when the reservation holds all of it.
   */
  async #sweep(budget: number): Promise<number> {
    const { deps } = this;
    const state = this.#state;
    const planned = this.#planSweep(Math.min(budget, this.#budget.reserved));
    if (!planned || this.#stop) return 0;
    if (planned.walk.maxPages === undefined && this.#budget.reserved < planned.walk.estimatedRequests) {
      this.#baselineDeferred = true;
      return 0;
    }
    const requestsBefore = deps.api.requestCount;
    const result = await this.#walk(planned.walk);
    const { listing } = result;
    if (planned.walk.maxPages === undefined) {
      // A baseline pass counts only whole and consistent; otherwise it is walked again next time.
      if (isTrustworthy(result)) state.sweptAt[planned.progress.key] = planned.progress.startedAt;
      state.sweep = null;
    } else if (listing) {
      const done = !listing.stoppedEarly;
      if (done) state.sweptAt[planned.progress.key] = planned.progress.startedAt;
      state.sweep = done ? null : { ...planned.progress, nextPage: listing.fromPage + listing.pages };
    }
    return deps.api.requestCount - requestsBefore;
  }

  /** Decided against the history as it stood before this cycle, which is about to cover new dates. */
  #judgeNews(history: SightingHistory): void {
    const listedApart = this.organization.establishments !== undefined;
    for (const observation of this.#observations.values()) {
      const news = isNews(observation.order, listedApart, history);
      observation.news = this.organization.emitExisting || news;
      observation.preexisting = !news && !this.#snapshots.has(observation.order.uuid);
    }
  }

  async #flush(): Promise<void> {
    const { organization, deps, startedAt } = this;
    const detectedAt = new Date(startedAt).toISOString();
    const context = {
      organization: { id: organization.id, name: organization.name },
      source: `${deps.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
      detectedAt,
      // Summaries recorded by earlier cycles: this cycle's are recorded after its order events, which
      // they count.
      summarySent: (establishmentUuid: string, pickupDate: string) =>
        this.#state.prepSummaries[prepSummaryKey(establishmentUuid, pickupDate)] !== undefined,
      establishmentName: (establishmentUuid: string) =>
        this.#state.establishments?.records.find(
          (record) => record.uuid.toLowerCase() === establishmentUuid.toLowerCase(),
        )?.name,
    };
    const graceDays = organization.window.daysBack + (deps.snapshotGraceDays ?? 2);
    for (const { order, news, preexisting } of this.#observations.values()) {
      const diff = diffOrder(this.#snapshots.get(order.uuid), order, {
        ...context,
        baseline: !news,
        expiresAt: expiryOf(order.pickup_at, graceDays),
      });
      if (diff.snapshot) {
        const events = announcedEvents(diff.events, organization.statuses);
        await this.#commit(diff.snapshot, events, preexisting ? undefined : order);
      }
    }
    for (const order of this.#missing) {
      const previous = this.#snapshots.get(order.uuid);
      if (!previous) continue;
      await this.#commit({ ...previous, missingSince: detectedAt, version: previous.version + 1 }, []);
    }
  }

  /**
   * Reads GET /establishments when the cache is an hour old, or sooner when an order names an
   * establishment it lacks. A failure keeps the old cache and is reported.
   */
  async #refreshEstablishments(): Promise<void> {
    const { deps, report, startedAt } = this;
    const state = this.#state;
    const cache = state.establishments;
    const known = new Set(cache?.records.map((record) => record.uuid.toLowerCase()) ?? []);
    const unknown = [...this.#observations.values()].some(
      ({ order }) => !known.has(order.establishment.uuid.toLowerCase()),
    );
    const age = cache === null ? Number.POSITIVE_INFINITY : startedAt - cache.fetchedAt;
    if (age < ESTABLISHMENTS_MAX_AGE_MS && !(unknown && age >= ESTABLISHMENTS_MIN_AGE_MS)) return;
    if (this.#stop || !(await this.#afford(1))) {
      report.deferred.push(ESTABLISHMENTS_LISTING);
      return;
    }
    const failed = (why: string) => {
      report.ok = false;
      report.failures.push(
        `${this.organization.name}: establishments not refreshed (${why}); closing times as last read`,
      );
    };
    const requestsBefore = deps.api.requestCount;
    try {
      const listing = await deps.api.listEstablishments({
        listing: ESTABLISHMENTS_LISTING,
        mayContinue: async ({ page, lastPage }) => this.#afford((lastPage ?? page) - page + 1),
      });
      report.problems.push(...listing.problems);
      if (!listing.complete || !listing.consistent || listing.stoppedEarly) {
        failed('the listing could not be read whole');
        return;
      }
      state.establishments = { fetchedAt: startedAt, records: listing.records };
    } catch (error) {
      failed((error as Error).message);
      if (failsEveryListing(error)) this.#stop = true;
    } finally {
      report.requestsFor.establishments = deps.api.requestCount - requestsBefore;
    }
  }

  /**
   * Records the prep summary of every closing the planner finds due, through the event log and its outbox,
   * then remembers it in the poll state. A crash in between records the same ids again next cycle, which
   * the log refuses as duplicates: one summary per establishment and date, whatever happens.
   */
  async #recordPrepSummaries(): Promise<void> {
    const { organization, deps, report, startedAt } = this;
    const state = this.#state;
    for (const key of Object.keys(state.prepSummaries)) {
      if ((key.split('|')[1] ?? '') < this.#window.startDate) delete state.prepSummaries[key];
    }
    if (state.establishments === null) return;
    const today = calendarDateIn(organization.timeZone, startedAt);
    const yesterday = addDays(today, -1);
    const due = planPrepSummaries({
      establishments: state.establishments.records,
      watched: organization.establishments,
      timeZone: organization.timeZone,
      now: startedAt,
      dates: (yesterday < this.#window.startDate ? [] : [yesterday]).concat(today),
      recorded: new Set(Object.keys(state.prepSummaries)),
      // Only this cycle's walks: its observations are the figures.
      pendingCoveredAt: Object.fromEntries(
        Object.entries(state.pendingCoveredAt).filter(([, at]) => at === startedAt),
      ),
      shortfall: this.#shortfall(),
      watchingSince: state.watchingSince,
    });
    if (due.length === 0) return;
    const sightings = this.#sightings();
    const built: Array<{ summary: DueSummary; event: PrepSummaryEvent }> = [];
    for (const summary of due) {
      try {
        built.push({ summary, event: this.#buildSummary(summary, sightings) });
      } catch (error) {
        report.ok = false;
        report.failures.push(`${organization.name}: ${(error as Error).message}`);
      }
    }
    if (built.length === 0) return;
    const { duplicateEventIds } = await deps.store.recordEvents(
      organization.id,
      built.map(({ event }) => event),
    );
    for (const { summary, event } of built) {
      if (!duplicateEventIds.includes(event.id)) report.events.push(event);
      const { establishment, pickupDate, closesAt } = summary.closing;
      state.prepSummaries[prepSummaryKey(establishment.uuid, pickupDate)] = {
        eventId: event.id,
        closedAt: closesAt,
        complete: event.data.complete,
      };
    }
  }

  #buildSummary(summary: DueSummary, sightings: readonly OrderSighting[]): PrepSummaryEvent {
    const { organization, deps, startedAt } = this;
    const { establishment, pickupDate, closesAt } = summary.closing;
    const orders = [...this.#observations.values()]
      .map(({ order }) => order)
      .filter(
        (order) =>
          order.status.value === 'pending' &&
          order.pickup_at === pickupDate &&
          order.establishment.uuid.toLowerCase() === establishment.uuid.toLowerCase(),
      );
    return buildPrepSummary({
      organization: { id: organization.id, name: organization.name },
      establishment,
      pickupDate,
      closedAt: zonedIsoTime(closesAt, organization.timeZone),
      source: `${deps.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
      time: new Date(startedAt).toISOString(),
      orders,
      canceledBeforeClosing: canceledBeforeClosing(sightings, summary.closing),
      incompleteReason:
        summary.incompleteReason === undefined
          ? undefined
          : `${summary.incompleteReason}; counted from the pending orders this cycle saw`,
    });
  }

  /** Why this cycle walked no pending listing whole, in one clause. */
  #shortfall(): string | undefined {
    const { report } = this;
    const failed = report.listings.find((listing) => listing.purpose === 'detect' && listing.error);
    if (failed) return `listing ${failed.key} failed (${failed.error})`;
    const cut = report.listings.find((listing) => listing.purpose === 'detect' && !listing.trustworthy);
    if (cut) return `listing ${cut.key} was not walked whole and consistently`;
    if (report.deferred.some((key) => key.startsWith('pending')))
      return 'the request budget did not stretch to it';
    return undefined;
  }

  /** Every order as last known: this cycle's sightings over the snapshots. */
  #sightings(): OrderSighting[] {
    const byUuid = new Map<string, OrderSighting>();
    for (const snapshot of this.#snapshots.values()) byUuid.set(snapshot.orderUuid, snapshot);
    for (const { order } of this.#observations.values()) {
      byUuid.set(order.uuid, {
        establishmentUuid: order.establishment.uuid,
        pickupDate: order.pickup_at,
        canceledAt: order.canceled_at,
      });
    }
    return [...byUuid.values()];
  }

  /** `order`, when given, dates each new event's change at the source. */
  async #commit(snapshot: Snapshot, events: OrderEvent[], order?: Order): Promise<void> {
    const result = await this.deps.store.commitChange(this.organization.id, { snapshot, events });
    if (result.outcome === 'version_conflict') {
      this.report.conflicts += 1;
      return;
    }
    const duplicates = new Set(result.duplicateEventIds);
    const recorded = events.filter((event) => !duplicates.has(event.id));
    this.report.events.push(...recorded);
    if (!order) return;
    for (const event of recorded) {
      const at = transitionTime(event, order);
      if (at !== undefined) this.report.sourceTimes[event.id] = at;
    }
  }

  /**
   * The dates of every pending listing walked completely this cycle are covered now: a new order there is
   * news. Dates that left the window, and sizes of pending parts that did, are forgotten.
   */
  #recordCoverage(): void {
    const state = this.#state;
    for (const result of this.#results) {
      const { listing } = result.walk;
      if (result.walk.purpose !== 'detect' || !isTrustworthy(result)) continue;
      state.watchingSince ??= this.startedAt;
      for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
        state.pendingCoveredAt[coverageKey(date, listing.establishment)] = this.startedAt;
      }
    }
    const start = this.#window.startDate;
    for (const key of Object.keys(state.pendingCoveredAt)) {
      if (key.slice(0, 10) < start) delete state.pendingCoveredAt[key];
    }
    for (const record of [state.listingSizes, state.lastFetchedAt]) {
      for (const key of Object.keys(record)) {
        const end = /\.\.(\d{4}-\d{2}-\d{2})\]/.exec(key)?.[1];
        if (end !== undefined && end < start) delete record[key];
      }
    }
  }

  async #save(nextPollAt: number): Promise<void> {
    const { report, startedAt } = this;
    const state = this.#state;
    state.lastAttemptAt = startedAt;
    state.nextPollAt = nextPollAt;
    // A deferral is neither a success nor a failure: the "not polled" alarm still sees the gap.
    if (report.outcome !== 'deferred') {
      if (report.ok) {
        state.lastSuccessAt = startedAt;
        state.consecutiveFailures = 0;
        state.lastError = null;
      } else {
        state.consecutiveFailures += 1;
        state.lastError = report.failures[0] ?? 'failed';
      }
    }
    const heldFor = (this.deps.lease ?? DEFAULT_LEASE_TERMS).heldFor;
    await this.deps.store.savePollState(
      state,
      heldFor === 'cycle' ? { releaseLeaseOf: this.deps.runId } : {},
    );
    this.saved = true;
  }
}

/** Terminal statuses worth sweeping: those whose transitions are announced. */
function sweptStatuses(organization: PolledOrganization): OrderStatus[] {
  return organization.statuses.filter((status) => TERMINAL_STATUSES.includes(status));
}

function queryOf(listing: ListingSpec): OrderQuery {
  return {
    status: listing.status,
    startDate: listing.startDate,
    endDate: listing.endDate,
    ...(listing.establishment ? { establishment: listing.establishment } : {}),
  };
}

function pendingByDate(
  snapshots: ReadonlyMap<string, Snapshot>,
  window: { startDate: string; endDate: string },
): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const snapshot of snapshots.values()) {
    if (snapshot.status !== 'pending' || snapshot.missingSince !== null) continue;
    if (snapshot.pickupDate < window.startDate || snapshot.pickupDate > window.endDate) continue;
    const byEstablishment = counts.get(snapshot.pickupDate) ?? new Map<string, number>();
    byEstablishment.set(
      snapshot.establishmentUuid,
      (byEstablishment.get(snapshot.establishmentUuid) ?? 0) + 1,
    );
    counts.set(snapshot.pickupDate, byEstablishment);
  }
  return counts;
}

/**
 * State written before per-date coverage knew only "pending was walked over these dates at that time":
 * read it as coverage, so an upgrade neither re-baselines nor announces old orders.
 */
function adoptLegacyCoverage(state: PollState): PollState {
  if (Object.keys(state.pendingCoveredAt).length > 0 || state.watchingSince !== null) return state;
  for (const key of state.baselined) {
    const [status, establishment] = key.split('@');
    const walkedAt = state.lastFetchedAt[key];
    const window = state.lastWindows[key];
    if (status !== 'pending' || walkedAt === undefined || !window) continue;
    state.watchingSince = Math.min(state.watchingSince ?? walkedAt, walkedAt);
    for (let date = window.startDate; date <= window.endDate; date = addDays(date, 1)) {
      state.pendingCoveredAt[coverageKey(date, establishment)] = walkedAt;
    }
  }
  return state;
}

function movingAverage(average: number, latest: number): number {
  return average === 0 ? latest : average * (1 - AVERAGE_WEIGHT) + latest * AVERAGE_WEIGHT;
}

function failsEveryListing(error: unknown): boolean {
  return (
    error instanceof RequestBudgetExhaustedError ||
    // Unreachable after the client's retries: every other listing goes to the same origin.
    error instanceof NetworkError ||
    (error instanceof AdminApiError && [400, 401, 403, 404].includes(error.status ?? 0))
  );
}

function expiryOf(pickupDate: string, graceDays: number): number {
  return Date.parse(`${addDays(pickupDate, graceDays + 1)}T00:00:00Z`);
}
