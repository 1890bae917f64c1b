// Pins the walk-pending phase: every planned walk in order, each with its listing and requests; a failure
// that would fail every listing defers the rest without a request, one that fails a single listing does not.
import { describe, expect, it } from 'vitest';
import { NetworkError, ServerError, UnauthorizedError } from '../../../shared/api/errors.js';
import type { Listing } from '../../../shared/api/pagination.js';
import type { Order, OrderInput } from '../../../shared/api/schemas.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import { walkPending } from '../../../shared/poll/walkPending.js';
import { cycleFixture, plannedWalk, TODAY, windowListing } from '../../support/cycleFixture.js';
import { apiFailures, type InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { makeEstablishment, makeOrder } from '../../support/orderFactory.js';

function establishment(): { uuid: string; name: string } {
  const { uuid, name } = makeEstablishment();
  return { uuid, name };
}
const [north, south, east] = [establishment(), establishment(), establishment()];
/** Pending listed apart for three establishments, as planDetection plans them. */
const walks = [north, south, east].map((establishment) =>
  plannedWalk(windowListing({ establishment: establishment.uuid })),
);
/** 30 pending orders at north (two pages), one at south, none at east. */
const orders = () => [
  ...Array.from({ length: 30 }, () => makeOrder({ pickup_at: TODAY, establishment: north })),
  makeOrder({ pickup_at: TODAY, establishment: south }),
];

describe('walkPending', () => {
  it('walks every planned listing in the plan’s order, each with its own orders and requests', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 4 });
    const outcomes = await walkPending(context, walks, new Map());
    expect(
      outcomes.map((outcome) => [
        outcome.walk.key,
        outcome.deferred,
        outcome.requests,
        outcome.listing?.total,
      ]),
    ).toEqual([
      [`pending@${north.uuid}`, false, 2, 30],
      [`pending@${south.uuid}`, false, 1, 1],
      [`pending@${east.uuid}`, false, 1, 0],
    ]);
    expect(source.fetched.map((page) => page.params.establishment)).toEqual([
      north.uuid,
      north.uuid,
      south.uuid,
      east.uuid,
    ]);
  });

  it('defers the rest without a request after a 401 on the first walk', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 4 });
    source.failListing({ error: apiFailures.unauthorized() });
    const outcomes = await walkPending(context, walks, new Map());
    expect(outcomes[0]?.error).toBeInstanceOf(UnauthorizedError);
    expect(outcomes.map((outcome) => [outcome.deferred, outcome.requests])).toEqual([
      [false, 1],
      [true, 0],
      [true, 0],
    ]);
    expect(source.requestCount).toBe(1);
  });

  it('defers the walks after an unreachable API, but not those before it', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 4 });
    source.failListing({ query: { establishment: south.uuid }, error: apiFailures.network() });
    const outcomes = await walkPending(context, walks, new Map());
    expect(outcomes.map((outcome) => outcome.listing !== undefined)).toEqual([true, false, false]);
    expect(outcomes[1]?.error).toBeInstanceOf(NetworkError);
    expect(outcomes[2]).toMatchObject({ deferred: true, requests: 0 });
  });

  it('walks on after a server error, which fails only its own listing', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 4 });
    source.failListing({ query: { establishment: north.uuid }, error: apiFailures.server(500) });
    const outcomes = await walkPending(context, walks, new Map());
    expect(outcomes[0]?.error).toBeInstanceOf(ServerError);
    expect(outcomes.slice(1).map((outcome) => [outcome.deferred, outcome.listing?.complete])).toEqual([
      [false, true],
      [false, true],
    ]);
  });

  it('defers the walks the budget no longer stretches to, without failing them', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), available: 3, reserved: 3 });
    const outcomes = await walkPending(context, walks, new Map());
    expect(outcomes.map((outcome) => [outcome.deferred, outcome.requests])).toEqual([
      [false, 2],
      [false, 1],
      [true, 0],
    ]);
    expect(outcomes.every((outcome) => outcome.error === undefined)).toBe(true);
    expect(source.requestCount).toBe(3);
  });

  it('walks nothing when nothing is planned', async () => {
    const { context, source } = await cycleFixture();
    expect(await walkPending(context, [], new Map())).toEqual([]);
    expect(source.requestCount).toBe(0);
  });

  it('walks a listing the world moved under once more at once, and keeps the second walk with both walks’ requests', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 8 });
    const arrived = makeOrder({ pickup_at: TODAY, establishment: north });
    const walksOfNorth = moveUnderNorth(source, { arrived });
    const [northOutcome] = await walkPending(context, walks.slice(0, 1), new Map());
    expect(walksOfNorth()).toBe(2);
    expect(northOutcome?.listing?.consistent).toBe(true);
    expect(northOutcome?.listing?.records.map((order) => order.uuid)).toContain(arrived.uuid);
    expect(northOutcome?.requests).toBe(4);
  });

  it('leaves a listing the world moved under to the next cycle, without waiting, when the window has no room for it now', async () => {
    const { context, source, budget } = await cycleFixture({ orders: orders(), reserved: 2, available: 2 });
    const walksOfNorth = moveUnderNorth(source, {
      arrived: makeOrder({ pickup_at: TODAY, establishment: north }),
    });
    const [northOutcome] = await walkPending(context, walks.slice(0, 1), new Map());
    expect(walksOfNorth()).toBe(1);
    expect(northOutcome?.listing?.consistent).toBe(false);
    expect(northOutcome?.requests).toBe(2);
    // A reservation asked for would have waited, on a real token, holding back what the cycle already saw.
    expect(budget.reserveCalls.slice(1)).toEqual([]);
  });

  it('walks a listing that stays inconsistent only twice', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 8 });
    const walksOfNorth = moveUnderNorth(source, { every: true });
    const [northOutcome] = await walkPending(context, walks.slice(0, 1), new Map());
    expect(walksOfNorth()).toBe(2);
    expect(northOutcome?.listing?.consistent).toBe(false);
    expect(northOutcome?.requests).toBe(4);
  });

  describe('an order the first walk saw and the second did not', () => {
    /**
     * North's first walk is moved under, then the first order it read leaves pending before the second
     * walk; `known` says whether a snapshot of it was there already.
     */
    async function walkedTwice(known: boolean) {
      const { context, source } = await cycleFixture({ orders: orders(), reserved: 8 });
      const snapshots = new Map<string, Snapshot>();
      let gone = '';
      const walksOfNorth = moveUnderNorth(source, {
        afterFirst: (listing) => {
          gone = listing.records[0]?.uuid ?? '';
          source.setStatus(gone, 'completed');
          if (known) snapshots.set(gone, {} as Snapshot);
        },
      });
      const [northOutcome] = await walkPending(context, walks.slice(0, 1), snapshots);
      expect(walksOfNorth()).toBe(2);
      return { seen: northOutcome?.listing?.records.map((order) => order.uuid) ?? [], gone };
    }

    it('keeps one that was new as seen: it was pending when read, and nothing else would look for it', async () => {
      const { seen, gone } = await walkedTwice(false);
      expect(gone).not.toBe('');
      expect(seen).toContain(gone);
    });

    it('leaves one already known out, for the look-up of absent orders to find where it went', async () => {
      const { seen, gone } = await walkedTwice(true);
      expect(seen).not.toContain(gone);
    });
  });

  it('reports a second walk that failed, so the cycle stops as for any failed walk', async () => {
    const { context, source } = await cycleFixture({ orders: orders(), reserved: 8 });
    const walksOfNorth = moveUnderNorth(source, {
      // The token is revoked between the two walks.
      afterFirst: () =>
        source.failListing({ query: { establishment: north.uuid }, error: apiFailures.unauthorized() }),
    });
    const outcomes = await walkPending(context, walks, new Map());
    expect(walksOfNorth()).toBe(2);
    expect(outcomes[0]?.error).toBeInstanceOf(UnauthorizedError);
    expect(outcomes.slice(1).map((outcome) => outcome.stopped)).toEqual([true, true]);
  });
});

/**
 * Moves north's pending listing under its first walk (or under `every` walk): an order arrives between its
 * two pages, so `meta.total` moves. `afterFirst` sees what the first walk read before the second starts.
 * @returns how many walks of north's listing there have been
 */
function moveUnderNorth(
  source: InMemoryOrdersSource,
  options: { arrived?: OrderInput; every?: boolean; afterFirst?: (listing: Listing<Order>) => void } = {},
): () => number {
  const listOrders = source.listOrders.bind(source);
  let walksOfNorth = 0;
  source.listOrders = async (query, walk = {}) => {
    if (query?.establishment !== north.uuid) return listOrders(query, walk);
    walksOfNorth += 1;
    if (walksOfNorth > 1 && !options.every) return listOrders(query, walk);
    const arrived =
      walksOfNorth === 1 && options.arrived
        ? options.arrived
        : makeOrder({ pickup_at: TODAY, establishment: north });
    const listing = await listOrders(query, {
      ...walk,
      mayContinue: async (next) => {
        if (next.page === 2) source.addOrders(arrived);
        return (await walk.mayContinue?.(next)) ?? true;
      },
    });
    if (walksOfNorth === 1) options.afterFirst?.(listing);
    return listing;
  };
  return () => walksOfNorth;
}
