// The in-memory OrdersSource the phase tests run on: the same listings as the real AdminApiClient over
// the simulator's routes (answered in process, no socket), its filters, pages, totals, walks and request
// count; the world changed between calls, injected failures, both budgets; and the poll cycle driven end
// to end on it and the in-memory state store.
import { describe, expect, it } from 'vitest';
import { AdminApiClient } from '../../../shared/api/adminApiClient.js';
import {
  NetworkError,
  RequestBudgetExhaustedError,
  ServerError,
  ValidationError,
} from '../../../shared/api/errors.js';
import type { OrderQuery } from '../../../shared/api/orderQuery.js';
import type { ListingWalk } from '../../../shared/api/pagination.js';
import type { Order } from '../../../shared/api/schemas.js';
import { TERMINAL_STATUSES } from '../../../shared/detect/planSweep.js';
import type { HttpClient, HttpResponse } from '../../../shared/http/httpClient.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { addInitialOrders } from '../../../simulator/initialOrders.js';
import { PickupDateWriter } from '../../../simulator/pickupFormat.js';
import { listEstablishments } from '../../../simulator/routes/establishments.js';
import { listOrders } from '../../../simulator/routes/orders.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';
import { formatTimestamp, microsFromMs } from '../../../simulator/timestamps.js';
import { World } from '../../../simulator/world.js';
import { CountingBudget, virtualRequestBudget } from '../../support/cycleBudgets.js';
import { failOnCleanupFailure } from '../../support/cycleFixture.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { apiFailures, IN_MEMORY_BASE_URL, InMemoryOrdersSource } from '../../support/inMemoryOrdersSource.js';
import { InMemoryStateStore } from '../../support/inMemoryStateStore.js';
import { ESTABLISHMENT_UUID, makeEstablishment, makeOrder } from '../../support/orderFactory.js';

/** Tuesday 10 March 2026, 06:00 in Lisbon (UTC+0 until the end of March). */
const T0 = Date.UTC(2026, 2, 10, 6, 0, 0);
const TODAY = '2026-03-10';
const TIME_ZONE = 'Europe/Lisbon';
const MINUTE = 60_000;

/** An HttpClient that answers in process with the simulator's routes over `world`, as its server would. */
function simulatorInProcess(world: World): HttpClient {
  const pickupDates = new PickupDateWriter('iso');
  return {
    async request(url: URL): Promise<HttpResponse> {
      const listingPath = `${url.origin}${url.pathname}`;
      const answer = url.pathname.endsWith('/orders')
        ? listOrders({ world, query: url.searchParams, listingPath, shape: 'envelope', pickupDates })
        : listEstablishments(world);
      const text = JSON.stringify(answer.body);
      return {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
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

/** A seeded simulator world, the real client over it, and the fake holding the same orders. */
function sideBySide() {
  const clock = () => T0;
  const rng = new SeededRandom(7);
  const world = new World({
    organization: { id: '6f1c1f0e-6a55-4b9f-9d51-2f3b8c1d0a11', name: 'North School' },
    rng: rng.fork('world'),
    clock,
    timeZone: TIME_ZONE,
  });
  addInitialOrders(world, rng.fork('initial'), 90);
  const [kitchen] = world.establishments();
  if (!kitchen) throw new Error('no establishment');
  for (let i = 0; i < 6; i += 1) world.addOrder({ status: 'completed', pickupDate: addDays(TODAY, 1) });
  const unlimited = () => virtualRequestBudget({ clock, requestsPerMinute: 100_000 });
  const client = new AdminApiClient({
    baseUrl: IN_MEMORY_BASE_URL,
    organizationId: world.organization.id,
    organizationName: world.organization.name,
    token: 'test-token',
    httpClient: () => simulatorInProcess(world),
    budget: unlimited(),
    retry: { maxAttempts: 1 },
    clock,
  });
  const fake = new InMemoryOrdersSource({
    organizationId: world.organization.id,
    organizationName: world.organization.name,
    orders: world.listOrders(),
    establishments: world.establishments(),
    budget: unlimited(),
    clock,
    timeZone: TIME_ZONE,
  });
  return { world, client, fake, kitchen };
}

describe('InMemoryOrdersSource, side by side with AdminApiClient over the simulator', () => {
  const { client, fake, kitchen } = sideBySide();

  const cases: Array<[string, OrderQuery, ListingWalk<Order>]> = [
    ['the default listing (pending, today)', {}, {}],
    ['pending over a week', { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, 7) }, {}],
    [
      'completed tomorrow',
      { status: 'completed', startDate: addDays(TODAY, 1), endDate: addDays(TODAY, 1) },
      {},
    ],
    [
      'one establishment',
      { status: 'pending', startDate: TODAY, endDate: TODAY, establishment: 'KITCHEN' },
      {},
    ],
    [
      'a card-paid slice',
      { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, 7), paymentMethod: 'card' },
      {},
    ],
    [
      'a walk resumed at page 2',
      { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, 7) },
      { fromPage: 2 },
    ],
    [
      'a walk stopped before page 2',
      { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, 7) },
      { listing: 'pending', mayContinue: ({ page }) => page < 2 },
    ],
    [
      'a walk stopped once something was found',
      { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, 7) },
      { foundEnough: (records) => records.length > 0 },
    ],
    ['an empty listing', { status: 'archived', startDate: '2027-01-01', endDate: '2027-01-02' }, {}],
  ];

  it.each(cases)('lists %s alike, in as many requests', async (_name, query, walk) => {
    const resolved = query.establishment === 'KITCHEN' ? { ...query, establishment: kitchen.uuid } : query;
    const [clientBefore, fakeBefore] = [client.requestCount, fake.requestCount];
    const expected = await client.listOrders(resolved, walk);
    const listed = await fake.listOrders(resolved, walk);
    expect(listed).toEqual(expected);
    expect(fake.requestCount - fakeBefore).toBe(client.requestCount - clientBefore);
  });

  it('spans pages of 25 with meta.total, as the world holds them', async () => {
    const listing = await fake.listOrders({
      status: 'pending',
      startDate: TODAY,
      endDate: addDays(TODAY, 7),
    });
    expect(listing.total).toBeGreaterThan(50);
    expect(listing).toMatchObject({
      records: expect.any(Array),
      pages: Math.ceil((listing.total ?? 0) / 25),
      lastPage: Math.ceil((listing.total ?? 0) / 25),
      complete: true,
      consistent: true,
      stoppedEarly: false,
    });
    expect(listing.records).toHaveLength(listing.total ?? -1);
  });

  it('lists establishments alike', async () => {
    expect(await fake.listEstablishments({ listing: 'establishments' })).toEqual(
      await client.listEstablishments({ listing: 'establishments' }),
    );
  });

  it('refuses a start date after the end date with the same validation error', async () => {
    const query = { status: 'pending', startDate: TODAY, endDate: addDays(TODAY, -1) } as const;
    const expected = await client.listOrders(query).catch((error: unknown) => error);
    const refused = await fake.listOrders(query).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toEqual(expected);
    expect((refused as ValidationError).message).toBe((expected as ValidationError).message);
  });
});

describe('InMemoryOrdersSource', () => {
  const pending = (startDate: string, endDate = startDate): OrderQuery => ({
    status: 'pending',
    startDate,
    endDate,
  });

  it('counts one request per page and logs each page fetched', async () => {
    const source = new InMemoryOrdersSource({
      orders: Array.from({ length: 30 }, () => makeOrder({ pickup_at: TODAY })),
    });
    const listing = await source.listOrders(pending(TODAY));
    expect(listing).toMatchObject({ total: 30, pages: 2, lastPage: 2, fromPage: 1, consistent: true });
    expect(source.requestCount).toBe(2);
    expect(source.fetched).toEqual([
      {
        listing: 'orders',
        params: { status: 'pending', start_date: TODAY, end_date: TODAY },
        page: 1,
        endpoint: `GET /orders?status=pending&start_date=${TODAY}&end_date=${TODAY}`,
      },
      {
        listing: 'orders',
        params: { status: 'pending', start_date: TODAY, end_date: TODAY },
        page: 2,
        endpoint: `GET /orders?status=pending&start_date=${TODAY}&end_date=${TODAY}&page=2`,
      },
    ]);
  });

  it('serves the world as changed between calls, never sharing a record with the caller', async () => {
    const kept = makeOrder({ pickup_at: TODAY });
    const leaving = makeOrder({ pickup_at: TODAY });
    const source = new InMemoryOrdersSource({ orders: [kept, leaving] });
    const first = await source.listOrders(pending(TODAY));
    const [listedFirst] = first.records;
    if (listedFirst) listedFirst.reference = 'edited by the caller';

    const arriving = makeOrder({ pickup_at: TODAY, created_at: '2026-03-10T06:01:00.000000Z' });
    source.addOrders(arriving);
    source.setStatus(leaving.uuid, 'completed', T0 + MINUTE);
    source.updateOrder(kept.uuid, { notes: 'no onions' });

    const second = await source.listOrders(pending(TODAY));
    expect(second.records.map((order) => order.uuid)).toEqual([kept.uuid, arriving.uuid]);
    expect(second.records[0]).toMatchObject({ reference: kept.reference, notes: 'no onions' });
    const completed = await source.listOrders({ status: 'completed', startDate: TODAY, endDate: TODAY });
    expect(completed.records).toEqual([
      expect.objectContaining({
        uuid: leaving.uuid,
        status: { label: 'Completed', value: 'completed' },
        completed_at: '2026-03-10T06:01:00.000000Z',
        updated_at: '2026-03-10T06:01:00.000000Z',
      }),
    ]);
    source.removeOrder(arriving.uuid);
    expect((await source.listOrders(pending(TODAY))).total).toBe(1);
  });

  it('filters by establishment and inclusive pickup dates, in either pickup_at form', async () => {
    const other = makeEstablishment();
    const here = makeOrder({ pickup_at: '10/03/26' });
    const there = makeOrder({ pickup_at: TODAY, establishment: { uuid: other.uuid, name: other.name } });
    const later = makeOrder({ pickup_at: addDays(TODAY, 2) });
    const source = new InMemoryOrdersSource({ orders: [here, there, later] });
    const uuids = async (query: OrderQuery) =>
      (await source.listOrders(query)).records.map((order) => order.uuid);

    expect(await uuids(pending(TODAY))).toEqual([here.uuid, there.uuid].sort());
    expect(await uuids({ ...pending(TODAY, addDays(TODAY, 2)), establishment: ESTABLISHMENT_UUID })).toEqual([
      here.uuid,
      later.uuid,
    ]);
    expect(await uuids(pending(addDays(TODAY, 1)))).toEqual([]);
    expect(
      (await source.listOrders(pending(TODAY))).records.find((o) => o.uuid === here.uuid)?.pickup_at,
    ).toBe(TODAY);
  });

  it('skips a malformed record and reports it, as the client does', async () => {
    const good = makeOrder({ pickup_at: TODAY });
    const broken = makeOrder({ pickup_at: TODAY });
    const source = new InMemoryOrdersSource({ orders: [good] });
    source.putRawRecord({ ...broken, total: 'lots' });
    const listing = await source.listOrders(pending(TODAY), { listing: 'pending' });
    expect(listing.records.map((order) => order.uuid)).toEqual([good.uuid]);
    expect(listing).toMatchObject({ complete: false, consistent: true, total: 2 });
    expect(listing.problems).toEqual([
      expect.objectContaining({ kind: 'skipped_record', listing: 'pending', page: 1, uuid: broken.uuid }),
    ]);
  });

  it('fails the listings named, for as many fetches as asked, each counting its request', async () => {
    const source = new InMemoryOrdersSource({
      organizationName: 'North School',
      orders: Array.from({ length: 30 }, () => makeOrder({ pickup_at: TODAY })),
    });
    source.failListing({ query: { status: 'completed' }, error: apiFailures.server(503), times: 1 });
    const completed = { status: 'completed', startDate: TODAY, endDate: TODAY } as const;

    const failed = await source.listOrders(completed).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ServerError);
    expect((failed as ServerError).message).toBe(
      `North School: server error (503) on GET /orders?status=completed&start_date=${TODAY}&end_date=${TODAY}`,
    );
    expect((await source.listOrders(completed)).total).toBe(0);
    expect((await source.listOrders(pending(TODAY))).total).toBe(30);
    expect(source.requestCount).toBe(4);

    const stop = source.failListing({ page: 2, error: apiFailures.network() });
    await expect(source.listOrders(pending(TODAY))).rejects.toBeInstanceOf(NetworkError);
    await expect(source.listOrders(pending(TODAY))).rejects.toBeInstanceOf(NetworkError);
    stop();
    expect((await source.listOrders(pending(TODAY))).pages).toBe(2);

    const odd = new Error('anything at all');
    source.failListing({ listing: 'establishments', error: odd });
    await expect(source.listEstablishments()).rejects.toBe(odd);
    source.clearFailures();
    await expect(source.listEstablishments()).resolves.toMatchObject({ records: [], total: undefined });
  });

  describe('with a CountingBudget', () => {
    it('takes each page from the reservation first, then alone, then refuses', async () => {
      const budget = new CountingBudget({ usablePerMinute: 45, available: 3, clock: () => T0 });
      const source = new InMemoryOrdersSource({
        budget,
        // Four pages: two reserved and one more available pay for three.
        orders: Array.from({ length: 80 }, () => makeOrder({ pickup_at: TODAY })),
      });
      expect(await budget.reserve(2, 2)).toBe(2);
      expect(await budget.remaining()).toBe(1);

      const refused = await source.listOrders(pending(TODAY)).catch((error: unknown) => error);

      expect(refused).toBeInstanceOf(RequestBudgetExhaustedError);
      expect(refused).toMatchObject({ retryAtMs: T0 + MINUTE });
      expect(source.requestCount).toBe(3);
      expect(budget.reserved).toBe(0);
      expect(await budget.remaining()).toBe(0);
    });

    it('grants all of atMost that fits, nothing short of atLeast, and takes back what was not sent', async () => {
      const budget = new CountingBudget({ available: 10 });
      expect(await budget.reserve(4, 6)).toBe(6);
      expect(await budget.reserve(5, 8)).toBe(0);
      expect(await budget.reserve(1, 8)).toBe(4);
      expect(budget.reserved).toBe(10);
      await budget.release();
      expect({ reserved: budget.reserved, remaining: await budget.remaining() }).toEqual({
        reserved: 0,
        remaining: 10,
      });
      expect(budget.reserveCalls).toEqual([
        { atLeast: 4, atMost: 6, granted: 6 },
        { atLeast: 5, atMost: 8, granted: 0 },
        { atLeast: 1, atMost: 8, granted: 4 },
      ]);
      expect(budget.holdMsFor(4)).toBe(3_000);
    });
  });

  it('draws on the real RequestBudget over in-memory counters without waiting', async () => {
    let now = T0;
    const budget = virtualRequestBudget({ clock: () => now, requestsPerMinute: 3 });
    const source = new InMemoryOrdersSource({
      budget,
      orders: Array.from({ length: 60 }, () => makeOrder({ pickup_at: TODAY })),
    });
    expect(budget.usablePerMinute).toBe(3);
    await expect(source.listOrders(pending(TODAY))).resolves.toMatchObject({ pages: 3 });
    await expect(source.listOrders(pending(TODAY))).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
    // Each request is counted 2 s after it went out (the longest it may take to reach the server) and
    // 250 ms for its budget write.
    now += MINUTE + 2_250;
    await expect(source.listOrders(pending(TODAY))).resolves.toMatchObject({ pages: 3 });
  });
});

describe('pollOrganization on the in-memory fakes', () => {
  const organization: PolledOrganization = {
    ...ORGANIZATION,
    timeZone: TIME_ZONE,
    window: { daysBack: 0, daysAhead: 7 },
    statuses: ['pending', 'completed', 'canceled', 'archived'],
    emitExisting: false,
    pollIntervalSeconds: 10,
    sweepIntervalSeconds: 60,
  };

  it('baselines silently, then finds a new order and a pending order that was completed', async () => {
    let now = T0;
    const clock = () => now;
    const store = new InMemoryStateStore({ clock });
    const existing = [makeOrder({ pickup_at: TODAY }), makeOrder({ pickup_at: addDays(TODAY, 1) })];
    const [toComplete] = existing;
    if (!toComplete) throw new Error('no order');
    const source = new InMemoryOrdersSource({
      organizationId: organization.id,
      organizationName: organization.name,
      orders: [
        ...existing,
        makeOrder({ pickup_at: TODAY, status: { label: 'Completed', value: 'completed' } }),
      ],
      establishments: [makeEstablishment({ uuid: ESTABLISHMENT_UUID, name: 'Main canteen' })],
      budget: virtualRequestBudget({ clock, counters: store.budgetCounters }),
      clock,
      timeZone: TIME_ZONE,
    });
    const cycle = async () => {
      now += MINUTE;
      return pollOrganization(organization, {
        api: source,
        store,
        clock,
        runId: 'test-run',
        baseUrl: IN_MEMORY_BASE_URL,
        onCleanupFailure: failOnCleanupFailure,
      });
    };

    const baseline = await cycle();
    expect(baseline).toMatchObject({ outcome: 'polled', ok: true, events: [], failures: [] });
    expect(baseline.requests).toBe(source.requestCount);
    expect((await store.loadSnapshots(organization.id)).size).toBeGreaterThanOrEqual(2);
    // Until the slow sweep has passed over every terminal listing once: all of it baseline, no event.
    const swept = async () => {
      const sweptAt = (await store.loadPollState(organization.id))?.sweep.sweptAt ?? {};
      return TERMINAL_STATUSES.every((status) => (sweptAt[status] ?? 0) >= T0);
    };
    for (let cycles = 0; !(await swept()); cycles += 1) {
      expect(cycles).toBeLessThan(20);
      expect((await cycle()).events).toEqual([]);
    }

    const arriving = makeOrder({ pickup_at: TODAY, created_at: formatTimestamp(microsFromMs(now + 30_000)) });
    source.addOrders(arriving);
    source.setStatus(toComplete.uuid, 'completed', now + 30_000);
    const report = await cycle();

    expect(report).toMatchObject({ outcome: 'polled', ok: true, failures: [] });
    // The completed order left pending and was looked up in the same cycle, not left for the sweep.
    expect(report.vanished.map((order) => order.uuid)).toEqual([toComplete.uuid]);
    expect(report.requestsFor.resolve).toBeGreaterThan(0);
    expect(report.events.map((event) => [event.type, event.subject]).sort()).toEqual(
      [
        ['order.created', arriving.uuid],
        ['order.completed', toComplete.uuid],
      ].sort(),
    );
    expect(store.drainDeliveryQueue().map((stored) => stored.event.id)).toEqual(
      report.events.map((event) => event.id),
    );
    expect(await store.leaseHolder(organization.id)).toBeUndefined();
  });
});
