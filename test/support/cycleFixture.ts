// One poll cycle's context on the in-memory fakes, for the tests of the cycle's phases: an organization in
// Lisbon on a Tuesday morning, its orders source, its state store and a CountingBudget the test sizes; and
// the walks and listings the pure phases take, built by hand.
import type { Listing } from '../../shared/api/pagination.js';
import { EstablishmentSchema, type Order, type OrderInput, OrderSchema } from '../../shared/api/schemas.js';
import { type ListingSpec, listingKey, type PlannedWalk } from '../../shared/detect/listingSpec.js';
import type { Snapshot } from '../../shared/detect/snapshot.js';
import {
  type CycleContext,
  cycleContext,
  type PollDependencies,
  type PolledOrganization,
} from '../../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import { DEFAULT_LEASE_TERMS } from '../../shared/poll/organizationLease.js';
import type { WalkOutcome } from '../../shared/poll/walkListing.js';
import type { EstablishmentsCache } from '../../shared/store/pollState.js';
import { CountingBudget } from './cycleBudgets.js';
import { ORGANIZATION, snapshotOf } from './detectFixtures.js';
import { IN_MEMORY_BASE_URL, InMemoryOrdersSource } from './inMemoryOrdersSource.js';
import { InMemoryStateStore } from './inMemoryStateStore.js';
import { ESTABLISHMENT_UUID, type EstablishmentInput, makeEstablishment } from './orderFactory.js';

/** Tuesday 10 March 2026, 06:00 in Lisbon (UTC+0 until the end of March): before any closing. */
export const T0 = Date.UTC(2026, 2, 10, 6, 0, 0);
export const TODAY = '2026-03-10';
/** The last day of the default window (a week ahead). */
export const LAST_DAY = '2026-03-17';
export const TIME_ZONE = 'Europe/Lisbon';
export const MINUTE = 60_000;
export const RUN_ID = 'test-run';

/** The organization every phase test polls: a week ahead, every status announced, no emitExisting. */
export function polledOrganization(overrides: Partial<PolledOrganization> = {}): PolledOrganization {
  return {
    ...ORGANIZATION,
    timeZone: TIME_ZONE,
    window: { daysBack: 0, daysAhead: 7 },
    statuses: ['pending', 'completed', 'canceled', 'archived'],
    emitExisting: false,
    pollIntervalSeconds: 10,
    sweepIntervalSeconds: 60,
    ...overrides,
  };
}

/** The establishment makeOrder's orders belong to, closing at 10:30 on working days. */
export function mainCanteen(overrides: Partial<EstablishmentInput> = {}): EstablishmentInput {
  return makeEstablishment({ uuid: ESTABLISHMENT_UUID, name: 'Main canteen', ...overrides });
}

/** The establishments cache as a refresh at `fetchedAt` would have left it. */
export function establishmentsCache(
  fetchedAt: number,
  establishments: readonly EstablishmentInput[] = [mainCanteen()],
): EstablishmentsCache {
  return {
    fetchedAt,
    records: establishments.map((establishment) => EstablishmentSchema.parse(establishment)),
  };
}

export interface CycleFixtureOptions {
  organization?: Partial<PolledOrganization>;
  /** When the cycle began. @default T0 */
  startedAt?: number;
  orders?: readonly OrderInput[];
  establishments?: readonly EstablishmentInput[];
  /** Requests the budget can still grant or serve. @default 45 */
  available?: number;
  /** @default 45 */
  usablePerMinute?: number;
  /** Requests reserved before the phase runs, as the cycle reserves up front (taken from `available`). @default 0 */
  reserved?: number;
  /**
   * Whether the run already holds the organization's lease, as after the claim phase: the phases' writes
   * are fenced by it. @default true
   */
  leaseHeld?: boolean;
  deps?: Partial<
    Pick<
      PollDependencies,
      | 'runId'
      | 'lease'
      | 'snapshotGraceDays'
      | 'describeFailure'
      | 'organizationsOnToken'
      | 'catchUpAfter'
      | 'leastIntervalSeconds'
      | 'onCleanupFailure'
    >
  >;
}

export interface CycleFixture {
  context: CycleContext;
  organization: PolledOrganization;
  source: InMemoryOrdersSource;
  store: InMemoryStateStore;
  budget: CountingBudget;
}

/**
 * The cleanup port of a test that expects none to fail: the failure fails the cycle, and so the test. A
 * test about cleanup failures collects them instead.
 */
export function failOnCleanupFailure(failure: CycleCleanupError): never {
  throw failure;
}

/** A cycle that began at `startedAt` on fresh fakes; the clock stays there. */
export async function cycleFixture(options: CycleFixtureOptions = {}): Promise<CycleFixture> {
  const startedAt = options.startedAt ?? T0;
  const clock = () => startedAt;
  const organization = polledOrganization(options.organization);
  const usablePerMinute = options.usablePerMinute ?? 45;
  const budget = new CountingBudget({
    usablePerMinute,
    available: options.available ?? usablePerMinute,
    clock,
  });
  if (options.reserved) await budget.reserve(options.reserved, options.reserved);
  const store = new InMemoryStateStore({ clock });
  const source = new InMemoryOrdersSource({
    organizationId: organization.id,
    organizationName: organization.name,
    budget,
    orders: options.orders ?? [],
    establishments: options.establishments ?? [],
    clock,
    timeZone: TIME_ZONE,
  });
  const deps: PollDependencies = {
    api: source,
    store,
    clock,
    runId: RUN_ID,
    baseUrl: IN_MEMORY_BASE_URL,
    onCleanupFailure: failOnCleanupFailure,
    ...options.deps,
  };
  if (options.leaseHeld ?? true) {
    await store.acquireLease(
      organization.id,
      deps.runId,
      startedAt,
      (deps.lease ?? DEFAULT_LEASE_TERMS).ttlMs,
    );
  }
  return { context: cycleContext(organization, deps, startedAt), organization, source, store, budget };
}

/** A pending (or other) listing over the default window, as planDetection plans it whole. */
export function windowListing(overrides: Partial<ListingSpec> = {}): ListingSpec {
  return {
    kind: 'window',
    status: 'pending',
    startDate: TODAY,
    endDate: LAST_DAY,
    establishment: undefined,
    ...overrides,
  } as ListingSpec;
}

/** A planned walk of `listing` (pending over the window by default), keyed as the planners key it. */
export function plannedWalk(
  listing: ListingSpec = windowListing(),
  overrides: Partial<PlannedWalk> = {},
): PlannedWalk {
  return {
    listing,
    key: listingKey(listing),
    purpose: listing.status === 'pending' ? 'detect' : 'sweep',
    fromPage: 1,
    maxPages: undefined,
    estimatedRequests: 1,
    ...overrides,
  };
}

/** A listing walked from its first page to its end without a problem, holding `records`. */
export function listingOf(
  records: readonly Order[],
  overrides: Partial<Listing<Order>> = {},
): Listing<Order> {
  const pages = Math.max(1, Math.ceil(records.length / 25));
  return {
    records: [...records],
    skipped: [],
    pages,
    total: records.length,
    lastPage: pages,
    fromPage: 1,
    stoppedEarly: false,
    complete: true,
    consistent: true,
    problems: [],
    ...overrides,
  };
}

/** What walking `walk` came to: `listing` as walked, or `error`. */
export function walkOutcome(
  walk: PlannedWalk,
  result: { listing: Listing<Order> } | { error: Error } | { deferred: true; stopped?: true },
  requests = 'listing' in result ? result.listing.pages : 'error' in result ? 1 : 0,
): WalkOutcome {
  return { walk, deferred: false, requests, ...result };
}

/** An order as the client hands it over (parsed). */
export function parsed(order: OrderInput): Order {
  return OrderSchema.parse(order);
}

/** The snapshot an earlier cycle stored of `order`. */
export function snapshotOfInput(order: OrderInput, overrides: Partial<Snapshot> = {}): Snapshot {
  return snapshotOf(parsed(order), overrides);
}

/** Snapshots by order uuid, as loadSnapshots gives them. */
export function snapshotsOf(...snapshots: Snapshot[]): Map<string, Snapshot> {
  return new Map(snapshots.map((snapshot) => [snapshot.orderUuid, snapshot]));
}

/** Stores `snapshots` as an earlier cycle would have committed them (without events). */
export async function storeSnapshots(store: InMemoryStateStore, ...snapshots: Snapshot[]): Promise<void> {
  for (const snapshot of snapshots) {
    const result = await store.commitChange(ORGANIZATION.id, { snapshot, events: [] });
    if (result.outcome !== 'committed') throw new Error(`snapshot of ${snapshot.orderUuid} not stored`);
  }
}
