// The poll cycle of one organization, the one use case the Lambda poller and the CLI share: plan the
// listings within the budget, fetch them, resolve orders that vanished, diff, and commit each change with
// its events. Absence only counts when the listing that should hold an order was walked completely.
import { AdminApiError, RequestBudgetExhaustedError } from '../api/errors.js';
import type { OrderQuery } from '../api/orderQuery.js';
import type { Listing } from '../api/pagination.js';
import type { Order } from '../api/schemas.js';
import { diffOrder } from '../detect/diffOrder.js';
import {
  listingKey,
  type PlannedListing,
  planPoll,
  planResolution,
  type VanishedOrder,
  windowDates,
} from '../detect/planPoll.js';
import type { Snapshot } from '../detect/snapshot.js';
import type { OrderEvent } from '../events/orderEvent.js';
import { initialPollState, type PollState, type StateStore } from '../store/stateStore.js';
import { addDays, calendarDateIn } from '../time/calendarDate.js';

/** The Admin API as the poll cycle needs it; AdminApiClient is one. */
export interface OrdersSource {
  listOrders(query: OrderQuery): Promise<Listing<Order>>;
  readonly budget: { remaining(): Promise<number> };
  readonly requestCount: number;
}

export interface PolledOrganization {
  id: string;
  name: string;
  timeZone: string;
  window: { daysBack: number; daysAhead: number };
  statuses: readonly string[];
  establishments?: readonly string[] | undefined;
  emitExisting: boolean;
}

export interface PollDependencies {
  api: OrdersSource;
  store: StateStore;
  clock: () => number;
  /** Names this run in the lease. */
  runId: string;
  /** CloudEvents `source` prefix: the API base URL. */
  baseUrl: string;
  /** @default 5 minutes: longer than any cycle, so a crashed run's lease frees itself soon after. */
  leaseTtlMs?: number;
  /** Days a snapshot outlives its pickup date's exit from the window. @default 2 */
  snapshotGraceDays?: number;
}

export interface ListingReport {
  key: string;
  status: string;
  startDate: string;
  endDate: string;
  /** Walked completely (no malformed record) and consistently. */
  trustworthy: boolean;
  orders: number;
  pages: number;
  problems: string[];
  error?: string;
}

export interface PollReport {
  organization: { id: string; name: string };
  /** `skipped`: another run holds the lease, or there was no budget for even the pending listings. */
  outcome: 'polled' | 'skipped';
  reason?: string;
  /** Every planned listing was fetched without error. */
  ok: boolean;
  requests: number;
  budgetRemaining: number;
  listings: ListingReport[];
  deferred: string[];
  ordersSeen: number;
  /** Events newly recorded this cycle, in commit order. */
  events: OrderEvent[];
  /** Orders another run changed first; they are looked at again next cycle. */
  conflicts: number;
  /** One line per failure, naming the listing and the cause. */
  failures: string[];
}

interface Observation {
  order: Order;
  /** Seen in a listing whose first complete walk this is: record silently. */
  baseline: boolean;
}

interface FetchedListing {
  planned: PlannedListing;
  listing?: Listing<Order>;
  error?: AdminApiError | Error;
}

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
    budgetRemaining: 0,
    listings: [],
    deferred: [],
    ordersSeen: 0,
    events: [],
    conflicts: 0,
    failures: [],
  };
  const leased = await deps.store.acquireLease(
    organization.id,
    deps.runId,
    startedAt,
    deps.leaseTtlMs ?? 5 * 60_000,
  );
  if (!leased) {
    return { ...report, outcome: 'skipped', reason: 'another run is polling this organization' };
  }
  try {
    await runCycle(organization, deps, startedAt, report);
  } finally {
    await deps.store.releaseLease(organization.id, deps.runId);
  }
  report.requests = deps.api.requestCount - requestsBefore;
  report.budgetRemaining = await deps.api.budget.remaining();
  return report;
}

async function runCycle(
  organization: PolledOrganization,
  deps: PollDependencies,
  startedAt: number,
  report: PollReport,
): Promise<void> {
  const state = (await deps.store.loadPollState(organization.id)) ?? initialPollState(organization.id);
  const snapshots = await deps.store.loadSnapshots(organization.id);
  const today = calendarDateIn(organization.timeZone, startedAt);
  const window = windowDates(today, organization.window);

  const plan = planPoll({
    today,
    window: organization.window,
    statuses: organization.statuses,
    establishments: organization.establishments,
    listingSizes: state.listingSizes,
    lastFetchedAt: state.lastFetchedAt,
    budget: await deps.api.budget.remaining(),
  });
  report.deferred = plan.deferred;
  if (plan.listings.length === 0) {
    report.outcome = 'skipped';
    report.reason = 'request budget exhausted for this token';
    report.ok = false;
    report.failures.push(`${organization.name}: ${report.reason}`);
    await savePollState(deps, state, startedAt, report);
    return;
  }

  const observations = new Map<string, Observation>();
  const fetched = await fetchAll(deps.api, plan.listings);
  recordListings(organization, fetched, state, observations, report, startedAt);

  // Orders gone from a listing walked completely went somewhere: ask the listings that would now hold them.
  const vanished = findVanished(snapshots, observations, window, (snapshot) =>
    fetched.some((entry) => holds(entry, snapshot.status, snapshot)),
  );
  const resolution = planResolution({
    vanished,
    statuses: organization.statuses,
    isCovered: (status, order) => fetched.some((entry) => holds(entry, status, order)),
    budget: await deps.api.budget.remaining(),
  });
  const narrow = await fetchAll(deps.api, resolution.listings);
  recordListings(organization, narrow, state, observations, report, startedAt);

  const detectedAt = new Date(startedAt).toISOString();
  const context = {
    organization: { id: organization.id, name: organization.name },
    source: `${deps.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
    detectedAt,
  };
  const graceDays = organization.window.daysBack + (deps.snapshotGraceDays ?? 2);
  for (const { order, baseline } of observations.values()) {
    const diff = diffOrder(snapshots.get(order.uuid), order, {
      ...context,
      baseline: baseline && !organization.emitExisting,
      expiresAt: expiryOf(order.pickup_at, graceDays),
    });
    if (diff.snapshot) await commit(deps.store, organization.id, diff.snapshot, diff.events, report);
  }

  // Absent wherever it could be: it moved out of the window or was deleted. Remember that once, so it is
  // not looked for again every cycle, and let the TTL forget it.
  const checked = [...fetched, ...narrow];
  for (const order of vanished) {
    const previous = snapshots.get(order.uuid);
    if (!previous || observations.has(order.uuid)) continue;
    const everywhere = organization.statuses.every(
      (status) => status === order.status || checked.some((entry) => holds(entry, status, order)),
    );
    if (everywhere) {
      const snapshot: Snapshot = { ...previous, missingSince: detectedAt, version: previous.version + 1 };
      await commit(deps.store, organization.id, snapshot, [], report);
    }
  }

  report.ordersSeen = observations.size;
  await savePollState(deps, state, startedAt, report);
}

async function fetchAll(api: OrdersSource, listings: PlannedListing[]): Promise<FetchedListing[]> {
  const fetched: FetchedListing[] = [];
  // One after another, as the spec asks of paginated walks.
  for (const planned of listings) {
    try {
      const listing = await api.listOrders({
        status: planned.status as OrderQuery['status'],
        startDate: planned.startDate,
        endDate: planned.endDate,
        ...(planned.establishment ? { establishment: planned.establishment } : {}),
      });
      fetched.push({ planned, listing });
    } catch (error) {
      fetched.push({ planned, error: error as Error });
      // A rejected token or organization, or an empty budget, fails every other listing the same way.
      if (failsEveryListing(error)) break;
    }
  }
  return fetched;
}

function failsEveryListing(error: unknown): boolean {
  return (
    error instanceof RequestBudgetExhaustedError ||
    (error instanceof AdminApiError && [400, 401, 403, 404].includes(error.status ?? 0))
  );
}

function recordListings(
  organization: PolledOrganization,
  fetched: FetchedListing[],
  state: PollState,
  observations: Map<string, Observation>,
  report: PollReport,
  fetchedAt: number,
): void {
  for (const { planned, listing, error } of fetched) {
    const isFullWindow = planned.key === listingKey(planned.status, planned.establishment);
    const listingReport: ListingReport = {
      key: planned.key,
      status: planned.status,
      startDate: planned.startDate,
      endDate: planned.endDate,
      trustworthy: listing !== undefined && isTrustworthy(listing),
      orders: listing?.records.length ?? 0,
      pages: listing?.pages ?? 0,
      problems: listing?.problems.map((problem) => problem.message) ?? [],
    };
    report.listings.push(listingReport);
    if (!listing) {
      listingReport.error = error?.message ?? 'failed';
      report.ok = false;
      report.failures.push(error?.message ?? `${organization.name}: listing ${planned.key} failed`);
      continue;
    }
    // Orders seen are facts even in an incomplete listing; only conclusions from absence need it complete.
    for (const order of listing.records) {
      observe(observations, order, isFullWindow && !couldHaveBeenSeen(order, planned.key, state));
    }
    if (isFullWindow && listingReport.trustworthy) {
      state.listingSizes[planned.key] = listing.records.length;
      state.lastFetchedAt[planned.key] = fetchedAt;
      state.lastWindows[planned.key] = { startDate: planned.startDate, endDate: planned.endDate };
      if (!state.baselined.includes(planned.key)) state.baselined.push(planned.key);
    }
  }
}

/** How far the API's clock may run behind ours before a new order could pass for an old one. */
const CLOCK_SKEW_MS = 15 * 60_000;

/**
 * Whether an order we have no snapshot of is news. It is when the listing was walked before and the order
 * was either within that walk's dates or created since. One that merely entered the window as the days
 * moved on, or on a listing's first walk, existed before we could see it: announcing it would be false.
 */
function couldHaveBeenSeen(order: Order, key: string, state: PollState): boolean {
  if (!state.baselined.includes(key)) return false;
  const previous = state.lastWindows[key];
  if (previous && previous.startDate <= order.pickup_at && order.pickup_at <= previous.endDate) return true;
  const walkedAt = state.lastFetchedAt[key];
  const createdAt = Date.parse(order.created_at);
  return walkedAt === undefined || Number.isNaN(createdAt) || createdAt >= walkedAt - CLOCK_SKEW_MS;
}

/** Keeps the most recent sighting when an order moved between two listings during the cycle. */
function observe(observations: Map<string, Observation>, order: Order, baseline: boolean): void {
  const seen = observations.get(order.uuid);
  // Baseline only when every listing that showed the order is on its first walk.
  const stillBaseline = baseline && (seen?.baseline ?? true);
  if (seen && seen.order.updated_at >= order.updated_at) seen.baseline = stillBaseline;
  else observations.set(order.uuid, { order, baseline: stillBaseline });
}

function findVanished(
  snapshots: Map<string, Snapshot>,
  observations: Map<string, Observation>,
  window: { startDate: string; endDate: string },
  covered: (order: VanishedOrder) => boolean,
): VanishedOrder[] {
  const vanished: VanishedOrder[] = [];
  for (const snapshot of snapshots.values()) {
    if (snapshot.missingSince !== null || observations.has(snapshot.orderUuid)) continue;
    if (snapshot.pickupDate < window.startDate || snapshot.pickupDate > window.endDate) continue;
    const order: VanishedOrder = {
      uuid: snapshot.orderUuid,
      pickupDate: snapshot.pickupDate,
      status: snapshot.status,
      establishment: snapshot.establishmentUuid,
    };
    if (covered(order)) vanished.push(order);
  }
  return vanished;
}

/** Whether `entry` was walked completely and would list an order of `status` like `order`. */
function holds(entry: FetchedListing, status: string, order: VanishedOrder): boolean {
  const { planned, listing } = entry;
  return (
    listing !== undefined &&
    isTrustworthy(listing) &&
    planned.status === status &&
    planned.startDate <= order.pickupDate &&
    order.pickupDate <= planned.endDate &&
    (planned.establishment === undefined || planned.establishment === order.establishment)
  );
}

async function commit(
  store: StateStore,
  organizationId: string,
  snapshot: Snapshot,
  events: OrderEvent[],
  report: PollReport,
): Promise<void> {
  const result = await store.commitChange(organizationId, { snapshot, events });
  if (result.outcome === 'version_conflict') {
    report.conflicts += 1;
    return;
  }
  const duplicates = new Set(result.duplicateEventIds);
  report.events.push(...events.filter((event) => !duplicates.has(event.id)));
}

async function savePollState(
  deps: PollDependencies,
  state: PollState,
  startedAt: number,
  report: PollReport,
): Promise<void> {
  state.lastAttemptAt = startedAt;
  if (report.ok) {
    state.lastSuccessAt = startedAt;
    state.consecutiveFailures = 0;
    state.lastError = null;
  } else {
    state.consecutiveFailures += 1;
    state.lastError = report.failures[0] ?? 'failed';
  }
  await deps.store.savePollState(state);
}

function isTrustworthy(listing: Listing<Order>): boolean {
  return listing.complete && listing.consistent;
}

function expiryOf(pickupDate: string, graceDays: number): number {
  return Math.floor(Date.parse(`${addDays(pickupDate, graceDays + 1)}T00:00:00Z`) / 1000);
}
