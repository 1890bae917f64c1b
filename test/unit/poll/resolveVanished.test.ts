// Pins the resolve phase: orders that left a pending listing walked whole are looked up, likeliest status
// first, one narrow listing per date and establishment, until found; found nowhere, they are missing; a
// failed look-up is not asked again this cycle and proves nothing; and the lookups record it leaves.
import { describe, expect, it } from 'vitest';
import type { OrderInput } from '../../../shared/api/schemas.js';
import type { Coverage } from '../../../shared/detect/coverage.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import { resolveVanished } from '../../../shared/poll/resolveVanished.js';
import { walkPending } from '../../../shared/poll/walkPending.js';
import type { Lookups } from '../../../shared/store/pollState.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import {
  type CycleFixture,
  cycleFixture,
  listingOf,
  MINUTE,
  parsed,
  plannedWalk,
  snapshotOfInput,
  snapshotsOf,
  T0,
  TODAY,
  walkOutcome,
  windowListing,
} from '../../support/cycleFixture.js';
import { apiFailures } from '../../support/inMemoryOrdersSource.js';
import { ESTABLISHMENT_UUID, makeOrder } from '../../support/orderFactory.js';

const NO_LOOKUPS: Lookups = { searched: {}, averageRequests: 0 };

/**
 * A snapshot as written before the payment method was kept: its look-ups go to every payment method at
 * once, which is what most cases below are about. The cases with a payment method come last.
 */
function unpaidSnapshot(order: OrderInput, overrides: Partial<Snapshot> = {}): Snapshot {
  const { paymentMethod: _unknown, ...snapshot } = snapshotOfInput(order, overrides);
  return snapshot;
}

/**
 * A cycle whose last one saw `orders` pending: their snapshots, and the source as the world is now once
 * `change` has run on it.
 */
async function cycleAfter(
  orders: readonly OrderInput[],
  change: (fixture: CycleFixture) => void,
  snapshots: Snapshot[] = orders.map((order) => unpaidSnapshot(order)),
): Promise<CycleFixture & { snapshots: Map<string, Snapshot> }> {
  const fixture = await cycleFixture({ orders, reserved: 10 });
  change(fixture);
  return { ...fixture, snapshots: snapshotsOf(...snapshots) };
}

const NO_COVERAGE: Coverage = { pendingCoveredAt: {}, watchingSince: null };

async function resolve(
  { context, snapshots }: Awaited<ReturnType<typeof cycleAfter>>,
  lookups: Lookups = NO_LOOKUPS,
) {
  const pending = await walkPending(context, [plannedWalk()], new Map());
  return resolveVanished(context, snapshots, pending, lookups, NO_COVERAGE);
}

const vanishedOf = (order: OrderInput, status = 'pending') => ({
  uuid: order.uuid,
  pickupDate: order.pickup_at,
  status,
  establishment: order.establishment.uuid,
});

describe('resolveVanished', () => {
  it('looks up an order that left a pending listing walked whole, and finds it in its new status', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) =>
      source.setStatus(order.uuid, 'completed', T0 - MINUTE),
    );
    const resolution = await resolve(cycle);
    expect(resolution.vanished).toEqual([vanishedOf(order)]);
    expect(
      resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.walk.purpose, outcome.requests]),
    ).toEqual([[`completed:${TODAY}@${ESTABLISHMENT_UUID}`, 'resolve', 1]]);
    expect(resolution.outcomes[0]?.listing?.records.map((record) => record.uuid)).toEqual([order.uuid]);
    expect(resolution.missing).toEqual([]);
    expect(resolution.lookups).toEqual({ searched: {}, averageRequests: 1 });
  });

  it('looks in the likeliest statuses in turn, one round each, until it finds the order', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) =>
      source.setStatus(order.uuid, 'canceled', T0 - MINUTE),
    );
    const resolution = await resolve(cycle);
    expect(resolution.outcomes.map((outcome) => outcome.walk.listing.status)).toEqual([
      'completed',
      'canceled',
    ]);
    expect(resolution.missing).toEqual([]);
    expect(resolution.lookups.searched).toEqual({});
  });

  it('ends in missing an order found in no status, and remembers where it was looked for', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) => source.removeOrder(order.uuid));
    const resolution = await resolve(cycle);
    expect(resolution.outcomes.map((outcome) => outcome.walk.listing.status)).toEqual([
      'completed',
      'canceled',
      'archived',
    ]);
    expect(resolution.missing).toEqual([vanishedOf(order)]);
    expect(resolution.lookups.searched[order.uuid]?.slice().sort()).toEqual([
      'archived',
      'canceled',
      'completed',
      'pending',
    ]);
  });

  it('leaves an order gone from today’s listing and found nowhere waiting, then missing once every date was walked since', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) => source.removeOrder(order.uuid));
    const todays = plannedWalk(windowListing({ kind: 'part', endDate: TODAY }));
    const pending = await walkPending(cycle.context, [todays], new Map());
    // Today's listing alone: it may be pending on another day, not walked this cycle.
    const first = await resolveVanished(cycle.context, cycle.snapshots, pending, NO_LOOKUPS, NO_COVERAGE);
    expect(first.outcomes.map((outcome) => outcome.walk.listing.status)).toEqual([
      'completed',
      'canceled',
      'archived',
    ]);
    expect(first.missing).toEqual([]);
    expect(first.lookups.waitingSince).toEqual({ [order.uuid]: T0 });
    // The rest of the window walked, a part at a time, since it began waiting: not pending anywhere either.
    const dates = Array.from({ length: 8 }, (_, i) => addDays(TODAY, i));
    const partly: Coverage = {
      pendingCoveredAt: Object.fromEntries(
        dates.map((date, i) => [date, i === 7 ? T0 - MINUTE : T0 + 1_000]),
      ),
      watchingSince: T0 - MINUTE,
    };
    const still = await resolveVanished(cycle.context, cycle.snapshots, pending, first.lookups, partly);
    expect(still.outcomes).toEqual([]);
    expect(still.missing).toEqual([]);
    const whole: Coverage = {
      pendingCoveredAt: Object.fromEntries(dates.map((date) => [date, T0 + 1_000])),
      watchingSince: T0 - MINUTE,
    };
    const last = await resolveVanished(cycle.context, cycle.snapshots, pending, first.lookups, whole);
    expect(last.missing).toEqual([vanishedOf(order)]);
    expect(last.lookups.waitingSince).toBeUndefined();
  });

  it('shares one look-up among the orders of one date and establishment', async () => {
    const orders = [makeOrder({ pickup_at: TODAY }), makeOrder({ pickup_at: TODAY })];
    const cycle = await cycleAfter(orders, ({ source }) => {
      for (const order of orders) source.setStatus(order.uuid, 'completed', T0 - MINUTE);
    });
    const resolution = await resolve(cycle);
    expect(resolution.vanished).toHaveLength(2);
    expect(resolution.outcomes).toHaveLength(1);
    expect(resolution.missing).toEqual([]);
  });

  it('looks for nothing when the pending listing was not walked whole', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) => {
      source.removeOrder(order.uuid);
      source.failListing({ query: { status: 'pending' }, error: apiFailures.server(503) });
    });
    const resolution = await resolve(cycle);
    expect(resolution).toEqual({
      vanished: [],
      outcomes: [],
      missing: [],
      lookups: { searched: {}, averageRequests: 0 },
    });
    expect(cycle.source.requestCount).toBe(1);
  });

  it('leaves alone orders still pending, outside the listing walked, or already marked missing', async () => {
    const stays = makeOrder({ pickup_at: TODAY });
    const beyond = makeOrder({ pickup_at: addDays(TODAY, 30) });
    const missing = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter(
      [stays, beyond, missing],
      ({ source }) => {
        source.removeOrder(beyond.uuid);
        source.removeOrder(missing.uuid);
      },
      [
        unpaidSnapshot(stays),
        unpaidSnapshot(beyond),
        unpaidSnapshot(missing, { missingSince: new Date(T0 - MINUTE).toISOString() }),
      ],
    );
    const resolution = await resolve(cycle);
    expect(resolution.vanished).toEqual([]);
    expect(resolution.outcomes).toEqual([]);
  });

  it('does not ask a failed look-up again this cycle, looks in the other statuses, and concludes nothing', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) => {
      source.removeOrder(order.uuid);
      source.failListing({ query: { status: 'completed' }, error: apiFailures.server(503) });
    });
    const resolution = await resolve(cycle);
    expect(
      resolution.outcomes.map((outcome) => [
        outcome.walk.listing.status,
        outcome.error ? 'failed' : 'walked',
      ]),
    ).toEqual([
      ['completed', 'failed'],
      ['canceled', 'walked'],
      ['archived', 'walked'],
    ]);
    expect(resolution.missing).toEqual([]);
    // What failed is not remembered as searched: it is still to be asked, first, next cycle.
    expect(resolution.lookups.searched[order.uuid]?.slice().sort()).toEqual([
      'archived',
      'canceled',
      'pending',
    ]);
  });

  it('asks first, next cycle, the statuses earlier cycles did not look in', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) =>
      source.setStatus(order.uuid, 'canceled', T0 - MINUTE),
    );
    const resolution = await resolve(cycle, {
      searched: { [order.uuid]: ['pending', 'completed'] },
      averageRequests: 0,
    });
    expect(resolution.outcomes.map((outcome) => outcome.walk.listing.status)).toEqual(['canceled']);
  });

  it('keeps, of the earlier cycles’ record, only the orders still unresolved, with both cycles’ statuses', async () => {
    const [found, lost] = [makeOrder({ pickup_at: TODAY }), makeOrder({ pickup_at: addDays(TODAY, 1) })];
    const cycle = await cycleAfter([found, lost], ({ source }) => {
      source.setStatus(found.uuid, 'completed', T0 - MINUTE);
      source.removeOrder(lost.uuid);
      source.failListing({ query: { status: 'canceled' }, error: apiFailures.server(503) });
    });
    const earlier = {
      searched: { [found.uuid]: ['archived'], [lost.uuid]: ['canceled'], gone: ['completed'] },
      averageRequests: 0,
    };
    const resolution = await resolve(cycle, earlier);
    expect(Object.keys(resolution.lookups.searched)).toEqual([lost.uuid]);
    expect(resolution.lookups.searched[lost.uuid]?.slice().sort()).toEqual([
      'archived',
      'canceled',
      'completed',
      'pending',
    ]);
  });

  it('stops looking after a look-up fails as every listing would, deferring the rest without a request', async () => {
    const [today, tomorrow] = [makeOrder({ pickup_at: TODAY }), makeOrder({ pickup_at: addDays(TODAY, 1) })];
    const cycle = await cycleAfter([today, tomorrow], ({ source }) => {
      source.removeOrder(today.uuid);
      source.removeOrder(tomorrow.uuid);
      source.failListing({ query: { status: 'completed' }, error: apiFailures.unauthorized() });
    });
    const resolution = await resolve(cycle);
    expect(
      resolution.outcomes.map((outcome) => [
        outcome.walk.listing.startDate,
        outcome.deferred,
        outcome.requests,
      ]),
    ).toEqual([
      [TODAY, false, 1],
      [addDays(TODAY, 1), true, 0],
    ]);
    expect(resolution.missing).toEqual([]);
    expect(Object.keys(resolution.lookups.searched).sort()).toEqual([today.uuid, tomorrow.uuid].sort());
  });

  it('counts this cycle’s look-up requests into their moving average', async () => {
    const order = makeOrder({ pickup_at: TODAY });
    const cycle = await cycleAfter([order], ({ source }) =>
      source.setStatus(order.uuid, 'canceled', T0 - MINUTE),
    );
    const resolution = await resolve(cycle, { searched: {}, averageRequests: 10 });
    // Two look-ups: 0.8 × 10 + 0.2 × 2.
    expect(resolution.lookups.averageRequests).toBeCloseTo(8.4);
  });

  it('lowers the average on a cycle with nothing to look up', async () => {
    const cycle = await cycleAfter([], () => {});
    expect((await resolve(cycle, { searched: {}, averageRequests: 5 })).lookups.averageRequests).toBeCloseTo(
      4,
    );
  });

  describe('with establishments listed apart', () => {
    /** This cycle walked the canteen's pending listing whole, and the order was not in it. */
    async function canteenWalkedWithout(order: OrderInput) {
      const fixture = await cycleFixture({
        organization: { establishments: [ESTABLISHMENT_UUID] },
        reserved: 10,
      });
      const walk = plannedWalk(windowListing({ establishment: ESTABLISHMENT_UUID }));
      const pending = [walkOutcome(walk, { listing: listingOf([]) })];
      return resolveVanished(
        fixture.context,
        snapshotsOf(unpaidSnapshot(order)),
        pending,
        NO_LOOKUPS,
        NO_COVERAGE,
      );
    }

    it('looks up an order that left its establishment’s pending listing, at that establishment', async () => {
      const order = makeOrder({ pickup_at: TODAY });
      const resolution = await canteenWalkedWithout(order);
      expect(resolution.vanished.map((vanished) => vanished.uuid)).toEqual([order.uuid]);
      expect(resolution.outcomes[0]?.walk.key).toBe(`completed:${TODAY}@${ESTABLISHMENT_UUID}`);
    });

    // The config lower-cases establishment uuids; the API may write them in capitals. Both name the same one.
    it('looks up an order whose establishment the API writes in capitals', async () => {
      const order = makeOrder({
        pickup_at: TODAY,
        establishment: { uuid: ESTABLISHMENT_UUID.toUpperCase(), name: 'Main canteen' },
      });
      const resolution = await canteenWalkedWithout(order);
      expect(resolution.vanished.map((vanished) => vanished.uuid)).toEqual([order.uuid]);
    });
  });

  describe('with the payment method the order was last seen paid with', () => {
    const cash = { label: 'Cash', value: 'cash' };

    it('looks among the orders paid the same way first, and finds it there in one request', async () => {
      const order = makeOrder({ pickup_at: TODAY });
      const others = Array.from({ length: 30 }, () =>
        makeOrder({
          pickup_at: TODAY,
          status: { label: 'Completed', value: 'completed' },
          payment_method_type: cash,
        }),
      );
      const cycle = await cycleAfter(
        [order],
        ({ source }) => {
          source.addOrders(...others);
          source.setStatus(order.uuid, 'completed', T0 - MINUTE);
        },
        [snapshotOfInput(order)],
      );
      const resolution = await resolve(cycle);
      expect(resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.requests])).toEqual([
        [`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`, 1],
      ]);
      expect(resolution.outcomes[0]?.listing?.records.map((record) => record.uuid)).toEqual([order.uuid]);
      expect(resolution.lookups.searched).toEqual({});
    });

    it('finds an order whose payment method changed as it completed, among all payment methods', async () => {
      const order = makeOrder({ pickup_at: TODAY });
      const cycle = await cycleAfter(
        [order],
        ({ source }) => {
          source.setStatus(order.uuid, 'completed', T0 - MINUTE);
          source.updateOrder(order.uuid, { payment_method_type: cash });
        },
        [snapshotOfInput(order)],
      );
      const resolution = await resolve(cycle);
      expect(resolution.outcomes.map((outcome) => outcome.walk.key)).toEqual([
        `completed:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `canceled:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `archived:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `completed:${TODAY}@${ESTABLISHMENT_UUID}`,
      ]);
      expect(resolution.outcomes.at(-1)?.listing?.records.map((record) => record.uuid)).toEqual([order.uuid]);
      expect(resolution.missing).toEqual([]);
    });

    it('concludes missing only from listings of every payment method', async () => {
      const order = makeOrder({ pickup_at: TODAY });
      const cycle = await cycleAfter([order], ({ source }) => source.removeOrder(order.uuid), [
        snapshotOfInput(order),
      ]);
      const resolution = await resolve(cycle);
      expect(resolution.outcomes.map((outcome) => outcome.walk.key)).toEqual([
        `completed:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `canceled:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `archived:${TODAY}@${ESTABLISHMENT_UUID}/card`,
        `completed:${TODAY}@${ESTABLISHMENT_UUID}`,
        `canceled:${TODAY}@${ESTABLISHMENT_UUID}`,
        `archived:${TODAY}@${ESTABLISHMENT_UUID}`,
      ]);
      expect(resolution.missing.map((missing) => missing.uuid)).toEqual([order.uuid]);
    });

    it('does not ask a status among every payment method after it failed among the orders paid one way', async () => {
      const order = makeOrder({ pickup_at: TODAY });
      const cycle = await cycleAfter(
        [order],
        ({ source }) => {
          source.removeOrder(order.uuid);
          source.failListing({ query: { status: 'completed' }, error: apiFailures.server(503) });
        },
        [snapshotOfInput(order)],
      );
      const resolution = await resolve(cycle);
      expect(
        resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.error ? 'failed' : 'walked']),
      ).toEqual([
        [`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`, 'failed'],
        [`canceled:${TODAY}@${ESTABLISHMENT_UUID}/card`, 'walked'],
        [`archived:${TODAY}@${ESTABLISHMENT_UUID}/card`, 'walked'],
        [`canceled:${TODAY}@${ESTABLISHMENT_UUID}`, 'walked'],
        [`archived:${TODAY}@${ESTABLISHMENT_UUID}`, 'walked'],
      ]);
      expect(resolution.missing).toEqual([]);
    });

    describe('reading first the page the order should be on', () => {
      const completed = { label: 'Completed', value: 'completed' };
      /** 40 orders completed earlier today, created before the one we look for: it lands on page 2. */
      const earlier = Array.from({ length: 40 }, () =>
        makeOrder({ pickup_at: TODAY, status: completed, created_at: '2026-03-09T08:00:00.000000Z' }),
      );
      const order = makeOrder({ pickup_at: TODAY, created_at: '2026-03-10T08:00:00.000000Z' });

      async function completedAfterThem() {
        return cycleAfter(
          [order, ...earlier],
          ({ source }) => source.setStatus(order.uuid, 'completed', T0 - MINUTE),
          [order, ...earlier].map((known) => snapshotOfInput(known)),
        );
      }

      it('reads that page alone when the API lists as we think, and finds the order there', async () => {
        const resolution = await resolve(await completedAfterThem());
        expect(
          resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.walk.fromPage, outcome.requests]),
        ).toEqual([[`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`, 2, 1]]);
        expect(resolution.missing).toEqual([]);
      });

      // A listing sorted otherwise than we think would make the probe a wasted request on most look-ups:
      // pending's pages, in another order, say so, and the look-up reads from page 1 as it always did.
      it('reads from page 1 when pending came in another order than we predict pages by', async () => {
        const cycle = await completedAfterThem();
        const later = makeOrder({ pickup_at: TODAY, created_at: '2026-03-10T09:00:00.000000Z' });
        const sooner = makeOrder({ pickup_at: TODAY, created_at: '2026-03-10T07:00:00.000000Z' });
        const pending = [walkOutcome(plannedWalk(), { listing: listingOf([parsed(later), parsed(sooner)]) })];
        const resolution = await resolveVanished(
          cycle.context,
          cycle.snapshots,
          pending,
          NO_LOOKUPS,
          NO_COVERAGE,
        );
        expect(
          resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.walk.fromPage, outcome.requests]),
        ).toEqual([[`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`, 1, 2]]);
      });

      it('looks in canceled after a probe that missed, and only then in the rest of completed', async () => {
        const cycle = await cycleAfter(
          [order, ...earlier],
          ({ source }) => source.setStatus(order.uuid, 'canceled', T0 - MINUTE),
          [order, ...earlier].map((known) => snapshotOfInput(known)),
        );
        const resolution = await resolve(cycle);
        expect(
          resolution.outcomes.map((outcome) => [outcome.walk.key, outcome.walk.fromPage, outcome.requests]),
        ).toEqual([
          [`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`, 2, 1],
          [`canceled:${TODAY}@${ESTABLISHMENT_UUID}/card`, 1, 1],
        ]);
      });
    });
  });
});
