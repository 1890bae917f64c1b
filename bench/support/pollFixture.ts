// The world the poll benchmarks share: a simulator organization (no scenario, fixed clock) holding 1,000
// orders in the polled window across the four statuses and eight pickup dates, a client whose budget is
// too large to constrain a cycle, and helpers to run a cycle (the clock moved 60 s first), change ~10
// orders, compute the lower bounds, and check that a budget-true cycle went as it should.
import { AdminApiClient } from '../../shared/api/adminApiClient.js';
import { PAGE_SIZE } from '../../shared/api/pagination.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import type { OrderStatus } from '../../shared/api/schemas.js';
import { windowDates } from '../../shared/detect/planDetection.js';
import type { PolledOrganization } from '../../shared/poll/cycleContext.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import { pollOrganization } from '../../shared/poll/pollOrganization.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { addDays, calendarDateIn } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';

/** Tuesday 10 March 2026, 11:00 in Lisbon: every run sees the same "today" and the same timestamps. */
export const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);
/**
 * On the simulator and on the client alike, so the budget never shapes a cycle: the most a config may set
 * (`api.requestsPerMinute`), twenty times a cycle's needs here. More is a rate no token has: with it, the
 * sweep's share before the terminal listings' sizes are known asked DynamoDB's budget log for more entries
 * than an item holds, and the bench failed there.
 */
export const UNCONSTRAINED_REQUESTS_PER_MINUTE = 1_000;
export const STATUSES = ['pending', 'completed', 'canceled', 'archived'] as const;
const WINDOW = { daysBack: 0, daysAhead: 7 };
const TIME_ZONE = 'Europe/Lisbon';
/** 1,000 orders: a realistic mix, most still pending, then completed, archived, canceled. */
const MIX: Record<OrderStatus, number> = { pending: 520, completed: 260, canceled: 90, archived: 130 };

/** Days into the window, heavier on the nearest days as ordering tends to be; covers all eight. */
const DAY_PATTERN = [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7];

function pickDay(index: number): number {
  // Stepping by a number prime to the pattern's length spreads every status over every day.
  return DAY_PATTERN[(index * 5) % DAY_PATTERN.length] ?? 0;
}

/** A clock that only moves when told to, shared by the simulator, the client, its budget and the store. */
export class FixedClock {
  #now: number;

  constructor(startMs = T0) {
    this.#now = startMs;
  }

  /** Bound, so it can be handed around as `() => number`. */
  readonly now = (): number => this.#now;

  advance(ms: number): void {
    this.#now += ms;
  }
}

export interface PollFixture {
  sim: RunningSimulator;
  client: AdminApiClient;
  organization: PolledOrganization;
  /** Moves the clock a minute on (as the scheduler would) and polls once. */
  cycle(): Promise<PollReport>;
  /** Orders the world holds in the window, per status. */
  windowCounts(): Record<OrderStatus, number>;
  /**
   * max(1, ceil(n/25)) for the pending listing over the window: what any correct poller must read every
   * cycle to see every new order. The terminal listings are not in it: their slow sweep is extra.
   */
  pendingLowerBound(): number;
  /**
   * Changes 10 orders the way a busy minute does; returns the events and snapshot writes to expect, and
   * `leftPendingListings`: the distinct (new status, pickup date, establishment) of the orders that left
   * pending, one narrow request each at the least to find them.
   */
  changeTenOrders(): { events: number; changedOrders: number; leftPendingListings: number };
  close(): Promise<void>;
}

export async function openPollFixture(
  store: StateStore,
  fixedClock: FixedClock,
  seed = 7,
): Promise<PollFixture> {
  const clock = fixedClock.now;
  const sim = await startSimulator({
    seed,
    scenario: false,
    initialOrders: 0,
    organizations: [{ name: 'Bench School' }],
    requestsPerMinute: UNCONSTRAINED_REQUESTS_PER_MINUTE,
    timeZone: TIME_ZONE,
    clock,
  });
  const today = calendarDateIn(TIME_ZONE, clock());
  const window = windowDates(today, WINDOW);
  let index = 0;
  for (const status of STATUSES) {
    for (let i = 0; i < MIX[status]; i += 1) {
      const pickupDate = addDays(window.startDate, pickDay(index));
      const createdAtMs = clock() - 86_400_000 + index * 1_000;
      index += 1;
      if (status === 'archived') {
        // Archived orders went through completion first, as the records show.
        const order = sim.world.addOrder({ status: 'completed', pickupDate, createdAtMs });
        sim.world.setStatus(order.uuid, 'archived', { atMs: createdAtMs + 500 });
      } else {
        sim.world.addOrder({ status, pickupDate, createdAtMs });
      }
    }
  }

  const client = new AdminApiClient({
    baseUrl: sim.baseUrl,
    organizationId: sim.organization.id,
    organizationName: sim.organization.name,
    token: sim.token,
    clock,
    budget: new RequestBudget({
      token: sim.token,
      requestsPerMinute: UNCONSTRAINED_REQUESTS_PER_MINUTE,
      store: store.budgetCounters,
      clock,
      maxWaitMs: 0,
    }),
    // A retry would be an extra request the figures should not hide: any failure fails the bench.
    retry: { maxAttempts: 1 },
  });
  const organization: PolledOrganization = {
    id: sim.organization.id,
    name: sim.organization.name,
    timeZone: TIME_ZONE,
    window: WINDOW,
    statuses: [...STATUSES],
    emitExisting: false,
    pollIntervalSeconds: 60,
    sweepIntervalSeconds: 300,
    // The fixture steps its clock a minute a cycle: under `auto`, 11:00 is within the simulator's hot
    // window, whose shorter planned gap gives each cycle a sixth of the sweep while a minute passes.
    cadence: 'fixed',
  };

  const windowCounts = (): Record<OrderStatus, number> => {
    const counts: Record<OrderStatus, number> = { pending: 0, completed: 0, canceled: 0, archived: 0 };
    for (const order of sim.world.viewOrders()) {
      if (order.pickup_at < window.startDate || order.pickup_at > window.endDate) continue;
      counts[order.status.value as OrderStatus] += 1;
    }
    return counts;
  };

  return {
    sim,
    client,
    organization,
    cycle: async () => {
      fixedClock.advance(60_000);
      return pollOrganization(organization, {
        api: client,
        store,
        clock,
        runId: 'bench',
        baseUrl: sim.baseUrl,
        // A figure measured past a failed cleanup would not be the world's: stop there.
        onCleanupFailure: (failure: CycleCleanupError) => {
          throw failure;
        },
      });
    },
    windowCounts,
    pendingLowerBound: () => Math.max(1, Math.ceil(windowCounts().pending / PAGE_SIZE)),
    changeTenOrders: () => {
      const inWindow = (status: OrderStatus) =>
        sim.world.listOrders(
          (o) =>
            o.status.value === status && o.pickup_at >= window.startDate && o.pickup_at <= window.endDate,
        );
      const pending = inWindow('pending');
      const completed = inWindow('completed');
      const pick = <T>(list: T[], at: number): T => {
        const item = list[at];
        if (item === undefined) throw new Error(`bench world has no order #${at} to change`);
        return item;
      };
      const uuidOf = (list: { uuid: string }[], at: number) => pick(list, at).uuid;
      // Spread over the window so the changes touch several dates.
      const leftPending = new Set<string>();
      const leave = (at: number, status: OrderStatus) => {
        const order = sim.world.setStatus(uuidOf(pending, at), status);
        leftPending.add(`${status} ${order.pickup_at} ${order.establishment.uuid}`);
      };
      for (const at of [3, 90, 180, 270]) leave(at, 'completed');
      for (const at of [40, 300]) leave(at, 'canceled');
      for (const at of [10, 200]) sim.world.setStatus(uuidOf(completed, at), 'archived');
      const moved = pick(pending, 400);
      sim.world.setPickupDate(
        moved.uuid,
        addDays(moved.pickup_at, moved.pickup_at < window.endDate ? 1 : -1),
      );
      sim.world.addOrder({ pickupDate: addDays(window.startDate, 2) });
      // 4 completed + 2 canceled + 2 archived + 1 created + the pickup move, an order.rescheduled.
      return { events: 10, changedOrders: 10, leftPendingListings: leftPending.size };
    },
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
}

/**
 * Throws unless the cycle polled, without failure or version conflict, and walked pending (the listings
 * with purpose 'detect') completely and consistently. The terminal sweep is not held to that: a cycle
 * reads only a slice of it, and the budget may leave it for later.
 */
export function assertSoundCycle(report: PollReport, label: string): void {
  if (report.outcome !== 'polled' || !report.ok) {
    throw new Error(`${label}: cycle ${report.outcome}, failures: ${report.failures.join('; ') || 'none'}`);
  }
  if (report.conflicts > 0) throw new Error(`${label}: ${report.conflicts} version conflicts`);
  const detect = report.listings.filter((listing) => listing.purpose === 'detect');
  if (detect.length === 0) throw new Error(`${label}: pending was not walked`);
  const untrustworthy = detect.filter((listing) => !listing.trustworthy);
  if (untrustworthy.length > 0) {
    throw new Error(`${label}: pending walk untrustworthy: ${untrustworthy.map((l) => l.key).join(', ')}`);
  }
  const deferred = report.deferred.filter((key) => detect.some((listing) => listing.key === key));
  if (deferred.length > 0) throw new Error(`${label}: pending deferred: ${deferred.join(', ')}`);
}

/** Terminal listings a full sweep of this world covers (no establishments configured: one each). */
export const SWEPT_LISTINGS = ['completed', 'canceled', 'archived'] as const;

/** Whether every terminal listing has had one complete sweep pass. */
export async function sweptOnce(store: StateStore, organizationId: string): Promise<boolean> {
  const sweptAt = (await store.loadPollState(organizationId))?.sweep.sweptAt ?? {};
  return SWEPT_LISTINGS.every((key) => sweptAt[key] !== undefined);
}
