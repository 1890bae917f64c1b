// Pins the plan phase (pure): pending's walks sized from the pending snapshots in the window and split when
// too long for the budget, the baseline pass of the sweep asked for whole, the look-ups' average and the
// sweep's owed pages in what the cycle reserves, the cadence from the cached establishments; and planSweepPages.
import { describe, expect, it } from 'vitest';
import { coverageKey } from '../../../shared/detect/coverage.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import type { PollDependencies, PolledOrganization } from '../../../shared/poll/cycleContext.js';
import {
  type CyclePlan,
  leastToReserve,
  lookupAllowance,
  planCycle,
  planSweepPages,
  yieldToToday,
} from '../../../shared/poll/planCycle.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import {
  cycleFixture,
  establishmentsCache,
  LAST_DAY,
  MINUTE,
  snapshotOfInput,
  snapshotsOf,
  T0,
  TODAY,
} from '../../support/cycleFixture.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrder } from '../../support/orderFactory.js';

const NO_SNAPSHOTS = new Map<string, Snapshot>();
/** The fixture budget's usable share of 50 a minute (cycleFixture). */
const USABLE = 45;

function state(overrides: Partial<PollState> = {}): PollState {
  return { ...initialPollState(ORGANIZATION.id), ...overrides };
}

/** `count` snapshots of orders picked up on `date`, as `overrides` say. */
function snapshotsOn(date: string, count: number, overrides: Partial<Snapshot> = {}): Snapshot[] {
  return Array.from({ length: count }, () => snapshotOfInput(makeOrder({ pickup_at: date }), overrides));
}

async function planned(
  pollState: PollState = state(),
  snapshots: ReadonlyMap<string, Snapshot> = NO_SNAPSHOTS,
  options: {
    organization?: Partial<PolledOrganization>;
    usablePerMinute?: number;
    organizationsOnToken?: number;
    leastIntervalSeconds?: PollDependencies['leastIntervalSeconds'];
  } = {},
) {
  const { context, budget } = await cycleFixture({
    ...(options.organization ? { organization: options.organization } : {}),
    ...(options.usablePerMinute ? { usablePerMinute: options.usablePerMinute } : {}),
    deps: {
      ...(options.organizationsOnToken ? { organizationsOnToken: options.organizationsOnToken } : {}),
      ...(options.leastIntervalSeconds ? { leastIntervalSeconds: options.leastIntervalSeconds } : {}),
    },
  });
  return { context, plan: planCycle(context, pollState, snapshots, budget) };
}

describe('planCycle', () => {
  it('plans one whole walk of pending over the window, of one page while its size is unknown', async () => {
    const { plan } = await planned();
    expect(plan.detection).toEqual([
      {
        listing: {
          kind: 'window',
          status: 'pending',
          startDate: TODAY,
          endDate: LAST_DAY,
          establishment: undefined,
        },
        key: 'pending',
        purpose: 'detect',
        fromPage: 1,
        maxPages: undefined,
        estimatedRequests: 1,
      },
    ]);
    expect(plan.detectionRequests).toBe(1);
  });

  it('sizes pending from the pending snapshots in the window, not the missing ones nor those outside it', async () => {
    const snapshots = snapshotsOf(
      ...snapshotsOn(TODAY, 60),
      ...snapshotsOn(TODAY, 30, { missingSince: new Date(T0 - MINUTE).toISOString() }),
      ...snapshotsOn(addDays(LAST_DAY, 1), 30),
      ...snapshotsOn(addDays(TODAY, -1), 30),
      ...snapshotsOn(TODAY, 30, { status: 'completed' }),
    );
    // Walked whole a minute ago: the 500 its first page announced once is stale.
    const walkedAt = { pending: T0 - MINUTE };
    const { plan } = await planned(state({ listings: { sizes: { pending: 500 }, walkedAt } }), snapshots);
    expect(plan.detection.map((walk) => walk.estimatedRequests)).toEqual([3]);
  });

  it('sizes an establishment’s pending listing from its pending snapshots when establishments are listed apart', async () => {
    const snapshots = snapshotsOf(...snapshotsOn(TODAY, 60));
    const { plan } = await planned(state(), snapshots, {
      organization: { establishments: [ESTABLISHMENT_UUID] },
    });
    expect(plan.detection.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending@${ESTABLISHMENT_UUID}`, 3],
    ]);
  });

  // The config lower-cases establishment uuids; the API may write them in capitals. Both name the same one.
  it('counts the pending snapshots whose establishment the API wrote in capitals', async () => {
    const snapshots = snapshotsOf(
      ...snapshotsOn(TODAY, 60, { establishmentUuid: ESTABLISHMENT_UUID.toUpperCase() }),
    );
    const { plan } = await planned(state(), snapshots, {
      organization: { establishments: [ESTABLISHMENT_UUID] },
    });
    expect(plan.detection.map((walk) => walk.estimatedRequests)).toEqual([3]);
  });

  it('sizes pending from the size last seen while no pending order is known', async () => {
    const { plan } = await planned(state({ listings: { sizes: { pending: 51 }, walkedAt: {} } }));
    expect(plan.detectionRequests).toBe(3);
  });

  it('splits pending into date parts when the whole is more than half a minute’s budget, and walks the longest unseen that fit in a cycle', async () => {
    const tomorrow = addDays(TODAY, 1);
    const rest = `pending[${addDays(TODAY, 2)}..${LAST_DAY}]`;
    const snapshots = snapshotsOf(...snapshotsOn(TODAY, 60), ...snapshotsOn(tomorrow, 60));
    /** Every date walked before, today a minute ago, tomorrow three, the rest two; later as `since` says. */
    const plan = async (since: Record<string, number> = {}) => {
      const pendingCoveredAt = Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => addDays(TODAY, i)).map((date) => [
          date,
          since[date] ?? T0 - (date === TODAY ? 1 : date === tomorrow ? 3 : 2) * MINUTE,
        ]),
      );
      const coverage = { pendingCoveredAt, watchingSince: T0 - 10 * MINUTE };
      return (
        await planned(state({ coverage }), snapshots, {
          // 4 a minute: no cycle may walk more than 2 pages; a date's 3 pages still make a part of their own.
          usablePerMinute: 4,
        })
      ).plan;
    };
    // 7 pages in all: a cycle that had to reserve them could never start. Tomorrow's, walked longest ago, first.
    const first = await plan();
    expect(first.detection.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending[${tomorrow}..${tomorrow}]`, 3],
    ]);
    expect(first.detectionRequests).toBe(3);
    // Then the rest of the week; today's, walked a minute ago, last.
    const second = await plan({ [tomorrow]: T0 });
    expect(second.detection.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([[rest, 1]]);
    const later = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [addDays(TODAY, i + 2), T0]));
    const third = await plan({ [tomorrow]: T0, ...later });
    expect(third.detection.map((walk) => walk.key)).toEqual([`pending[${TODAY}..${TODAY}]`]);
  });

  it('reads a date too large for any walk a page a cycle, only where the minute holds it beside the walks', async () => {
    const [long, tooLong] = [addDays(TODAY, 1), addDays(TODAY, 2)];
    const sizes = {
      pending: 3_000,
      [`pending[${long}..${long}]`]: 1_125,
      [`pending[${tooLong}..${tooLong}]`]: 1_200,
    };
    // Every date but those two walked a minute ago (and empty): the 45 pages of the first are due.
    const pendingCoveredAt = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => addDays(TODAY, i))
        .filter((date) => date !== long && date !== tooLong)
        .map((date) => [date, T0 - MINUTE]),
    );
    const plan = async (snapshots: ReadonlyMap<string, Snapshot>) =>
      (
        await planned(
          state({
            listings: { sizes, walkedAt: {} },
            coverage: { pendingCoveredAt, watchingSince: T0 - 10 * MINUTE },
          }),
          snapshots,
        )
      ).plan;
    const due = await plan(snapshotsOf(...snapshotsOn(TODAY, 1)));
    expect(due.unwalkable.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending[${tooLong}..${tooLong}]`, 48],
    ]);
    // The 45 pages fill the minute: no probe beside them, and never more than the token may grant.
    expect(due.detection.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending[${long}..${long}]`, 45],
    ]);
    expect(leastToReserve(due)).toBe(USABLE);
  });

  it("gives up today first where today's listings are longer than half a minute's budget, so that a cycle can always start", async () => {
    // Three kitchens listed apart, each with a lunch of 500 today: 60 pages of today's every cycle.
    const kitchens = [
      ESTABLISHMENT_UUID,
      ...['b', 'c'].map((x) => `e5a1b2c3-0000-4000-8000-00000000000${x}`),
    ];
    const snapshots = snapshotsOf(
      ...kitchens.flatMap((uuid) => [
        ...snapshotsOn(TODAY, 500, { establishmentUuid: uuid }),
        ...snapshotsOn(addDays(TODAY, 1), 25, { establishmentUuid: uuid }),
      ]),
    );
    const pendingCoveredAt = Object.fromEntries(
      kitchens.flatMap((uuid) =>
        Array.from({ length: 8 }, (_, i) => [coverageKey(addDays(TODAY, i), uuid), T0 - MINUTE]),
      ),
    );
    const { plan } = await planned(
      state({
        establishments: establishmentsCache(T0 - MINUTE),
        coverage: { pendingCoveredAt, watchingSince: T0 - MINUTE },
      }),
      snapshots,
      { organization: { establishments: kitchens } },
    );
    expect(plan.today).toBeUndefined();
    // A kitchen's window, 21 pages, a cycle: each fits, and together they would not.
    expect(plan.detection.map((walk) => [walk.key, walk.estimatedRequests])).toHaveLength(1);
    expect(leastToReserve(plan)).toBe(21);
  });

  describe('today first', () => {
    const TODAYS = `pending[${TODAY}..${TODAY}]`;
    /**
     * 40 pending orders today and 161 over the rest of the week, the window walked on each date `ago` ms
     * before, and recent cycles' changes to today's orders and to other days' in the proportion `mix`.
     */
    async function canteen(
      ago: number,
      options: Parameters<typeof planned>[2] & {
        mix?: { today: number; elsewhere: number; todayEdits?: number; elsewhereEdits?: number };
        coveredAt?: Record<string, number>;
        readAt?: Record<string, number>;
        lookups?: Partial<PollState['lookups']>;
        listings?: Partial<PollState['listings']>;
        snapshots?: ReadonlyMap<string, Snapshot>;
      } = {},
    ) {
      const snapshots = options.snapshots ?? canteenSnapshots();
      const covered = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [addDays(TODAY, i), T0 - ago]));
      const pollState = state({
        establishments: establishmentsCache(T0 - MINUTE),
        listings: { sizes: {}, walkedAt: {}, ...options.listings },
        coverage: {
          pendingCoveredAt: { ...covered, ...options.coveredAt },
          watchingSince: T0 - 60 * MINUTE,
          ...(options.readAt ? { pendingReadAt: options.readAt } : {}),
        },
        lookups: { searched: {}, averageRequests: 1.5, ...options.lookups },
        pace: {
          averageCycleRequests: 6,
          nextPollAt: null,
          ...(options.mix ? { changes: options.mix } : {}),
        },
      });
      return (await planned(pollState, snapshots, options)).plan;
    }

    function canteenSnapshots() {
      return snapshotsOf(
        ...[
          ...snapshotsOn(TODAY, 40),
          ...Array.from({ length: 7 }, (_, i) => snapshotsOn(addDays(TODAY, i + 1), 23)).flat(),
        ],
      );
    }

    it("reads today's listing every cycle, and a date of the rest beside it once the rest's period is up", async () => {
      // Half the changes elsewhere: each date of the rest at least every 30 ÷ 0.9 - 8 ≈ 25.3 s.
      const even = { today: 1, elsewhere: 1 };
      expect((await canteen(5_000, { mix: even })).detection.map((walk) => walk.key)).toEqual([TODAYS]);
      // Walked 22 s ago: due before the next cycle (about 5 s away), so walked now.
      const due = await canteen(22_000, { mix: even, coveredAt: { [addDays(TODAY, 5)]: T0 - 40_000 } });
      // The rest cut as fine as its dates (23 orders each): the date walked longest ago.
      expect(due.detection.map((walk) => walk.key)).toEqual([
        TODAYS,
        `pending[${addDays(TODAY, 5)}..${addDays(TODAY, 5)}]`,
      ]);
      expect(due.detectionRequests).toBe(2 + 1);
      // Four changes in five today's: the rest waits longer (32 s), today's listing is read as often.
      const busy = await canteen(22_000, { mix: { today: 4, elsewhere: 1 } });
      expect(busy.detection.map((walk) => walk.key)).toEqual([TODAYS]);
      expect(busy.pace.restPeriodMs).toBeGreaterThan(due.pace.restPeriodMs);
      // Cheaper cycles, so more of them: today's listing is read more often than the whole window would be.
      const plain = await canteen(5_000, { organization: { cadence: 'fixed' } });
      expect(busy.pace.intervalMs).toBeLessThan(0.7 * plain.pace.intervalMs);
    });

    it("checks today's listing between whole walks, in the order the API lists it", async () => {
      const snapshots = canteenSnapshots();
      const todays = [...snapshots.values()]
        .filter((snapshot) => snapshot.pickupDate === TODAY)
        .sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : 1))
        .map((snapshot) => snapshot.orderUuid);
      const walked = (ago: number) => ({ walkedAt: { [TODAYS]: T0 - ago } });
      const recent = await canteen(5_000, { snapshots, listings: walked(30_000) });
      expect(recent.detection[0]?.check).toEqual(todays);
      expect(recent.today?.[0]?.check).toEqual(todays);
      // Never walked whole, or not for 90 s (no edits seen), or not in our order last time: whole.
      expect((await canteen(5_000, { snapshots })).detection[0]?.check).toBeUndefined();
      expect(
        (await canteen(5_000, { snapshots, listings: walked(88_000) })).detection[0]?.check,
      ).toBeUndefined();
      const unpredicted = { ...walked(30_000), unpredicted: [TODAYS] };
      expect(
        (await canteen(5_000, { snapshots, listings: unpredicted })).detection[0]?.check,
      ).toBeUndefined();
      // Edits to today's orders seen lately: whole once the slow period is up (here 32 s).
      const edits = { today: 4, elsewhere: 0.5, todayEdits: 0.5 };
      expect(
        (await canteen(5_000, { snapshots, mix: edits, listings: walked(30_000) })).detection[0]?.check,
      ).toBeUndefined();
      expect(
        (await canteen(5_000, { snapshots, mix: edits, listings: walked(10_000) })).detection[0]?.check,
      ).toEqual(todays);
      // An order being looked for is not expected in the listing.
      const lookingFor = todays[3] as string;
      const looking = await canteen(5_000, {
        snapshots,
        listings: walked(30_000),
        lookups: { searched: { [lookingFor]: ['completed'] } },
      });
      expect(looking.detection[0]?.check).toEqual(todays.filter((uuid) => uuid !== lookingFor));
    });

    it("checks a date of the rest between its whole walks, and reads it again once the rest's period is up since a check read it", async () => {
      const snapshots = canteenSnapshots();
      const date = addDays(TODAY, 5);
      const KEY = `pending[${date}..${date}]`;
      const ordersThere = [...snapshots.values()]
        .filter((snapshot) => snapshot.pickupDate === date)
        .sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : 1))
        .map((snapshot) => snapshot.orderUuid);
      const even = { today: 1, elsewhere: 1 };
      const dueThere = { mix: even, snapshots, coveredAt: { [date]: T0 - 40_000 } };
      const restWalk = (plan: CyclePlan) => plan.detection.find((walk) => walk.key === KEY);
      /** The date's walk in the plan: its check, or 'whole'. */
      const howRead = (plan: CyclePlan) => {
        const walk = restWalk(plan);
        if (walk === undefined) throw new Error(`${KEY} is not in the plan`);
        return walk.check ?? 'whole';
      };
      // Walked whole 40 s ago: due, and checked, with the orders we know there in the API's order.
      const recently = { walkedAt: { [KEY]: T0 - 40_000 } };
      expect(howRead(await canteen(5_000, { ...dueThere, listings: recently }))).toEqual(ordersThere);
      // Never walked whole, or not for 90 s: whole.
      expect(howRead(await canteen(5_000, dueThere))).toBe('whole');
      const longAgo = { walkedAt: { [KEY]: T0 - 88_000 } };
      expect(howRead(await canteen(5_000, { ...dueThere, listings: longAgo }))).toBe('whole');
      // Edits seen on other days than today: a check would miss them, so whole once the rest's period is up.
      const edits = { ...dueThere, mix: { ...even, elsewhereEdits: 0.2 } };
      expect(howRead(await canteen(5_000, { ...edits, listings: recently }))).toBe('whole');
      // Read by a check 10 s ago, though walked whole 40 s ago: not due again yet.
      const read = await canteen(5_000, { ...dueThere, readAt: { [date]: T0 - 10_000 } });
      expect(restWalk(read)).toBeUndefined();
      expect(read.detection.map((walk) => walk.key)).toEqual([TODAYS]);
    });

    it("reserves a request for each look-up owed before the rest's part, within a walk's share of a minute, and walks today's alone with them when no more fits", async () => {
      const plan = await canteen(MINUTE, {
        mix: { today: 4, elsewhere: 1 },
        lookups: {
          // Two orders whose look-ups a full window cut short, and one looked for everywhere, waiting for
          // the window's walks instead: it owes no look-up.
          searched: { canceledLunch: ['completed/card'], pickedUp: [], movedAway: ['completed', 'canceled'] },
          waitingSince: { movedAway: T0 - MINUTE },
        },
      });
      expect(plan.owedLookups).toBe(2);
      // Today's two pages and the two look-ups before anything is walked; never more than the most it asks.
      expect(leastToReserve(plan)).toBe(2 + 2);
      expect(plan.planned).toBeGreaterThanOrEqual(plan.detectionRequests + 2);
      // A lunch served while its look-up listing failed: more owed than a window holds, after cycles of
      // dear look-ups. A request each up to the usual allowance, and never past the share of a minute one
      // walk may take, so the cycle always fits once the window empties.
      const gone = (count: number) =>
        Object.fromEntries(Array.from({ length: count }, (_, i) => [`gone-${i}`, []]));
      const many = await canteen(5_000, { lookups: { searched: gone(20) } });
      expect(many.owedLookups).toBe(lookupAllowance(1.5));
      expect(leastToReserve(many)).toBeLessThanOrEqual(many.planned);
      const lunch = await canteen(5_000, { lookups: { searched: gone(70), averageRequests: 32 } });
      expect(leastToReserve(lunch)).toBe(Math.floor(USABLE / 2));
      expect(leastToReserve(lunch)).toBeLessThanOrEqual(lunch.planned);
      // Room for today's listing, the rest's part and the look-ups: all of it.
      const whole = plan.detectionRequests + 2;
      expect(yieldToToday(plan, whole)).toBe(plan);
      // Room for the walks but not the look-ups: today's listing and the look-ups, the part next cycle.
      const short = yieldToToday(plan, whole - 1);
      expect(short.todayOnly).toBe(true);
      expect(short.detection.map((walk) => walk.key)).toEqual([TODAYS]);
      expect(short.detectionRequests).toBe(2);
      // Nothing owed: the walks alone decide, as before.
      const none = await canteen(MINUTE, { mix: { today: 4, elsewhere: 1 } });
      expect(none.owedLookups).toBe(0);
      expect(yieldToToday(none, none.detectionRequests)).toBe(none);
    });

    it('cuts a window reaching back before today into today, the days before and the days after', async () => {
      // The days before were never walked: their run is due first. Holding no order we know of, it runs on
      // into tomorrow's 23, in a listing of its own each side of today.
      const plan = await canteen(MINUTE, {
        organization: { window: { daysBack: 2, daysAhead: 7 } },
        mix: { today: 1, elsewhere: 3 },
      });
      expect(plan.detection.map((walk) => walk.key)).toEqual([
        TODAYS,
        `pending[${addDays(TODAY, -2)}..${addDays(TODAY, -1)}]`,
        `pending[${addDays(TODAY, 1)}..${addDays(TODAY, 1)}]`,
      ]);
    });

    it("is off when a cycle of today's alone would save less than two pages", async () => {
      const snapshots = snapshotsOf(...snapshotsOn(TODAY, 30), ...snapshotsOn(addDays(TODAY, 1), 20));
      const pollState = state({
        establishments: establishmentsCache(T0 - MINUTE),
        listings: { sizes: {}, walkedAt: { pending: T0 - 5_000 } },
      });
      const { plan } = await planned(pollState, snapshots);
      expect(plan.todayOnly).toBe(false);
      expect(plan.detection.map((walk) => walk.key)).toEqual(['pending']);
    });

    it('is off under "fixed": pollIntervalSeconds is kept, as asked', async () => {
      const fixed = await canteen(5_000, { organization: { cadence: 'fixed' } });
      expect(fixed.detection.map((walk) => walk.key)).toEqual(['pending']);
      expect(fixed.pace.restPeriodMs).toBe(Number.POSITIVE_INFINITY);
    });

    it('keeps each of 20 organizations on a shared token within 120 s of its last walk of the window', async () => {
      // The bench's 20 schools: 25 pending orders each over the week, a few today.
      const snapshots = snapshotsOf(
        ...[
          ...snapshotsOn(TODAY, 5),
          ...Array.from({ length: 7 }, (_, i) => snapshotsOn(addDays(TODAY, i + 1), 3)).flat(),
        ],
      );
      const pollState = state({
        establishments: establishmentsCache(T0 - MINUTE),
        listings: { sizes: {}, walkedAt: { pending: T0 - 5_000 } },
        lookups: { searched: {}, averageRequests: 0.3 },
      });
      const { plan } = await planned(pollState, snapshots, { organizationsOnToken: 20 });
      // A window of two pages: today's would cost half of it, and buy little.
      expect(plan.todayOnly).toBe(false);
      expect(plan.today).toBeUndefined();
      expect(plan.pace.intervalMs).toBeLessThanOrEqual(120_000);
    });
  });

  it('asks for the next date of a due baseline pass whole, as part of what the cycle reserves', async () => {
    const { plan } = await planned(state({ listings: { sizes: { completed: 240 }, walkedAt: {} } }));
    // 240 orders over the window's 8 days: 30 a date, two pages.
    expect(plan.baselinePages).toBe(2);
    expect(plan.planned).toBe(plan.detectionRequests + 1 + Math.max(2, Math.floor(plan.sweepBudget)));
  });

  it('spreads the first sweep after a start over the first minutes: never more than its steady share of a minute', async () => {
    // A canteen's terminal listings, none read yet: 100 completed and 20 canceled orders a date over the
    // window's 8 days (a whole pass of completed alone is 32 pages).
    const perDate: Record<string, number> = { completed: 100, canceled: 20 };
    const pagesOf = (status: string, startDate: string, endDate: string) => {
      let orders = 0;
      for (let date = startDate; date <= endDate; date = addDays(date, 1)) orders += perDate[status] ?? 0;
      return Math.max(1, Math.ceil(orders / 25));
    };
    let pollState = state({ lookups: { searched: {}, averageRequests: 0 } });
    let at = T0;
    const spent: Array<{ at: number; pages: number }> = [];
    let share = 0;
    while (at < T0 + 15 * MINUTE) {
      const { context, budget } = await cycleFixture({ startedAt: at });
      const plan = planCycle(context, pollState, NO_SNAPSHOTS, budget);
      share = plan.pace.perMinute * 0.3;
      const slice = planSweepPages(context, pollState, plan.sweepBudget);
      const pages = slice
        ? Math.min(
            pagesOf(slice.walk.listing.status, slice.walk.listing.startDate, slice.walk.listing.endDate),
            slice.walk.maxPages ?? Number.POSITIVE_INFINITY,
          )
        : 0;
      spent.push({ at, pages });
      const { sweep } = pollState;
      let next = sweep;
      if (slice && slice.walk.maxPages === undefined) {
        const done = slice.walk.listing.endDate >= context.window.endDate;
        next = {
          inProgress: done ? null : { ...slice.progress, nextDate: addDays(slice.walk.listing.endDate, 1) },
          sweptAt: done
            ? { ...sweep.sweptAt, [slice.progress.key]: slice.progress.startedAt }
            : sweep.sweptAt,
          credit: plan.sweepBudget - pages,
        };
      } else {
        next = { ...sweep, credit: plan.sweepBudget - pages };
      }
      pollState = { ...pollState, sweep: next };
      at += Math.max(plan.pace.intervalMs, ((plan.detectionRequests + pages) / plan.pace.perMinute) * MINUTE);
    }
    // The baseline went on: both listings' dates were read within the quarter hour.
    expect(pollState.sweep.sweptAt).toHaveProperty('completed');
    expect(pollState.sweep.sweptAt).toHaveProperty('canceled');
    for (const { at: from } of spent) {
      const inMinute = spent
        .filter((cycle) => cycle.at >= from && cycle.at < from + MINUTE)
        .reduce((sum, cycle) => sum + cycle.pages, 0);
      // One date's page beyond the share at most, paid back by the next cycles.
      expect(inMinute).toBeLessThanOrEqual(Math.ceil(share) + 1);
    }
  });

  it('asks for no baseline once completed and canceled were swept: archived never has one', async () => {
    const sweep = { inProgress: null, sweptAt: { completed: T0 - MINUTE, canceled: T0 - MINUTE }, credit: 0 };
    const { plan } = await planned(state({ sweep, listings: { sizes: { archived: 500 }, walkedAt: {} } }));
    expect(plan.baselinePages).toBe(0);
    expect(plan.planned).toBe(plan.detectionRequests + 1 + Math.floor(plan.sweepBudget));
  });

  it('reserves twice what look-ups cost on average, rounded up, and one more; expects the average in the pace', async () => {
    const without = (await planned()).plan;
    const lookups = { searched: {}, averageRequests: 2.4 };
    const { plan } = await planned(state({ lookups }));
    // Without look-ups the one request for a pending listing grown by a page; with them 2 × 2.4 → 5 more.
    const sweep = (of: typeof plan) => Math.max(of.baselinePages, Math.floor(of.sweepBudget));
    expect(plan.planned - sweep(plan)).toBe(without.planned - sweep(without) + 5);
    expect(plan.detectionRequests).toBe(without.detectionRequests);
    expect(plan.pace.intervalMs).toBeGreaterThanOrEqual(without.pace.intervalMs);
  });

  it('gives the sweep its share of the cycle plus what it is owed, at most one and a half shares', async () => {
    const share = (await planned()).plan.pace.sweepPagesPerCycle;
    expect(share).toBeGreaterThan(0);
    const owedLittle = (await planned(state({ sweep: { inProgress: null, sweptAt: {}, credit: 0.25 } })))
      .plan;
    expect(owedLittle.sweepBudget).toBeCloseTo(Math.min(share + 0.25, Math.max(1, share * 1.5)));
    const owedMuch = (await planned(state({ sweep: { inProgress: null, sweptAt: {}, credit: 100 } }))).plan;
    expect(owedMuch.sweepBudget).toBeCloseTo(Math.max(1, share * 1.5));
  });

  it('takes the least interval from the runtime’s rule for the organization’s size, when it has one', async () => {
    const asked: unknown[] = [];
    const { plan } = await planned(
      state({ listings: { sizes: { pending: 30 }, walkedAt: {} } }),
      NO_SNAPSHOTS,
      {
        organization: { pollIntervalSeconds: 60, cadence: 'fixed' },
        leastIntervalSeconds: (input) => {
          asked.push(input);
          return input.pendingPages <= 2 ? 15 : input.pollIntervalSeconds;
        },
      },
    );
    expect(asked).toEqual([
      {
        pollIntervalSeconds: 60,
        pendingPages: 2,
        averageLookups: 0,
        organizationsOnToken: 1,
        usablePerMinute: 45,
      },
    ]);
    expect(plan.cadence.minIntervalMs).toBe(15_000);
    const without = await planned(state(), NO_SNAPSHOTS, {
      organization: { pollIntervalSeconds: 60, cadence: 'fixed' },
    });
    expect(without.plan.cadence.minIntervalMs).toBe(60_000);
  });

  it('paces on the organization’s share of the token', async () => {
    const alone = (await planned()).plan.pace.perMinute;
    const shared = (await planned(state(), NO_SNAPSHOTS, { organizationsOnToken: 3 })).plan.pace.perMinute;
    expect(shared).toBeCloseTo(alone / 3);
  });

  it('follows a fixed cadence until the establishments are known, then their working days and closings', async () => {
    expect((await planned()).plan.cadence).toEqual({ mode: 'fixed', minIntervalMs: 10_000, changesAt: null });
    const establishments = establishmentsCache(T0 - MINUTE);
    // Tuesday 06:00: a working day, hot from 30 minutes before the 10:30 closing.
    expect((await planned(state({ establishments }))).plan.cadence).toEqual({
      mode: 'normal',
      minIntervalMs: 10_000,
      changesAt: Date.UTC(2026, 2, 10, 10, 0),
    });
    const fixed = await planned(state({ establishments }), NO_SNAPSHOTS, {
      organization: { cadence: 'fixed' },
    });
    expect(fixed.plan.cadence.mode).toBe('fixed');
  });
});

describe('planSweepPages', () => {
  it('plans nothing when no terminal status is announced', async () => {
    const { context } = await cycleFixture({ organization: { statuses: ['pending'] } });
    expect(planSweepPages(context, state(), 10)).toBeUndefined();
  });

  it('resumes the listing in progress at its next page, for at most the pages given', async () => {
    const { context } = await cycleFixture();
    const sweep = {
      inProgress: { key: 'archived', nextPage: 4, startedAt: T0 - 5 * MINUTE },
      sweptAt: { completed: T0 - MINUTE, canceled: T0 - MINUTE },
      credit: 0,
    };
    expect(planSweepPages(context, state({ sweep }), 2)).toEqual({
      walk: expect.objectContaining({ key: 'archived', purpose: 'sweep', fromPage: 4, maxPages: 2 }),
      progress: sweep.inProgress,
    });
  });
});
