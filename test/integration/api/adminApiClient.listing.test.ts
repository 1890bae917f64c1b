// Listings through the client against real loopback servers: envelope and bare forms, malformed records,
// pagination (same-origin links, built URLs, foreign links, loops, runaway walks) and consistency.
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ForeignLinkError, PaginationError } from '../../../shared/api/errors.js';
import type { OrderInput } from '../../../shared/api/schemas.js';
import {
  closeTestClients,
  createTestClient,
  rejectionOf,
  TEST_TOKEN,
} from '../../support/apiClientHarness.js';
import { closeServed, type LoopbackServer, sendJson, serve } from '../../support/loopbackServer.js';
import { envelope, makeOrder, makeOrders, paginatedEnvelope } from '../../support/orderFactory.js';

afterEach(async () => {
  await closeTestClients();
  await closeServed();
});

function requestedPage(req: IncomingMessage): number {
  return Number(new URL(req.url ?? '', 'http://127.0.0.1').searchParams.get('page') ?? '1');
}

/** Serves `orders` 25 to a page in the paginated envelope, with links that keep the query. */
async function serveOrders(
  orders: OrderInput[],
  options: { total?: (page: number) => number; next?: (page: number) => string | null | undefined } = {},
): Promise<LoopbackServer> {
  const lastPage = Math.max(1, Math.ceil(orders.length / 25));
  const server: LoopbackServer = await serve((req, res) => {
    const page = requestedPage(req);
    const query = new URL(req.url ?? '', server.origin).searchParams;
    query.delete('page');
    sendJson(
      res,
      200,
      paginatedEnvelope(orders.slice((page - 1) * 25, page * 25), {
        path: `${server.baseUrl}/orders`,
        page,
        lastPage,
        total: options.total?.(page) ?? orders.length,
        query: query.toString(),
        next: options.next?.(page),
      }),
    );
  });
  return server;
}

describe('AdminApiClient listOrders', () => {
  it('walks every page of the envelope form and parses every order', async () => {
    const orders = makeOrders(60);
    const server = await serveOrders(orders);
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders({ status: 'pending' });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/admin/orders?status=pending',
      '/api/v1/admin/orders?status=pending&page=2',
      '/api/v1/admin/orders?status=pending&page=3',
    ]);
    expect(listing.records.map((order) => order.uuid)).toEqual(orders.map((order) => order.uuid));
    expect(listing).toMatchObject({ pages: 3, total: 60, complete: true, consistent: true, problems: [] });
  });

  it('normalizes DD/MM/YY pickup dates in the listing', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, envelope([makeOrder({ pickup_at: '05/03/26' })])),
    );
    const { client } = createTestClient(server.baseUrl);
    expect((await client.listOrders()).records[0]?.pickup_at).toBe('2026-03-05');
  });

  it('skips a malformed order but marks the listing incomplete', async () => {
    const good = makeOrders(3);
    const bad = makeOrder({ pickup_at: '31/02/26' });
    const server = await serve((_req, res) => sendJson(res, 200, envelope([good[0], bad, good[1], good[2]])));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.records.map((order) => order.uuid)).toEqual(good.map((order) => order.uuid));
    expect(listing.complete).toBe(false);
    expect(listing.skipped).toEqual([
      { index: 1, uuid: bad.uuid, problem: expect.stringContaining('pickup_at'), page: 1 },
    ]);
    expect(listing.problems).toEqual([
      {
        kind: 'skipped_record',
        listing: '/orders',
        page: 1,
        uuid: bad.uuid,
        detail: 'record #1 on the page: pickup_at: neither YYYY-MM-DD nor DD/MM/YY',
      },
    ]);
  });

  it('reports a malformed order without a readable uuid by its position', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([makeOrder(), { total: 'x' }])));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.skipped).toEqual([{ index: 1, uuid: undefined, problem: expect.any(String), page: 1 }]);
    expect(listing.problems).toEqual([
      expect.objectContaining({
        kind: 'skipped_record',
        page: 1,
        detail: expect.stringMatching(/^record #1 /),
      }),
    ]);
    expect(listing.problems[0]).not.toHaveProperty('uuid');
  });

  it('counts a skipped order towards meta.total, so a listing with one is still consistent', async () => {
    const orders: OrderInput[] = [
      ...makeOrders(25),
      { ...makeOrder(), customer: null } as unknown as OrderInput,
    ];
    const server = await serveOrders(orders);
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing).toMatchObject({ pages: 2, total: 26, complete: false, consistent: true });
    expect(listing.records).toHaveLength(25);
    expect(listing.skipped[0]?.page).toBe(2);
  });

  it('accepts the orders listing as a bare array', async () => {
    const orders = makeOrders(3);
    const server = await serve((_req, res) => sendJson(res, 200, orders));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.records.map((order) => order.uuid)).toEqual(orders.map((order) => order.uuid));
    expect(listing).toMatchObject({ pages: 1, total: undefined, complete: true, consistent: true });
    expect(server.requests).toHaveLength(1);
  });

  it('follows a full bare array of 25 with page=2, keeping the filters', async () => {
    const orders = makeOrders(28);
    const server = await serve((req, res) => {
      const page = requestedPage(req);
      sendJson(res, 200, orders.slice((page - 1) * 25, page * 25));
    });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders({ status: 'completed' });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/admin/orders?status=completed',
      '/api/v1/admin/orders?status=completed&page=2',
    ]);
    expect(listing.records).toHaveLength(28);
    expect(listing.consistent).toBe(true);
  });

  it('skips a malformed order in a bare array too', async () => {
    const bad = { ...makeOrder(), items: 'none' };
    const server = await serve((_req, res) => sendJson(res, 200, [makeOrder(), bad]));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.records).toHaveLength(1);
    expect(listing.complete).toBe(false);
    expect(listing.skipped[0]?.uuid).toBe(bad.uuid);
  });

  it('builds page URLs from meta when the server sends no links', async () => {
    const orders = makeOrders(30);
    const server = await serve((req, res) => {
      const page = requestedPage(req);
      const body = paginatedEnvelope(orders.slice((page - 1) * 25, page * 25), {
        path: `${server.baseUrl}/orders`,
        page,
        lastPage: 2,
        total: 30,
      });
      delete body.links;
      sendJson(res, 200, body);
    });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders({ paymentMethod: 'cash' });
    expect(server.pagesRequested()).toEqual([undefined, '2']);
    expect(server.requests[1]?.url).toBe('/api/v1/admin/orders?payment_method_type=cash&page=2');
    expect(listing.records).toHaveLength(30);
  });

  it('follows a relative links.next on the same path', async () => {
    const server = await serveOrders(makeOrders(30), {
      next: (page) => (page === 1 ? '/api/v1/admin/orders?status=pending&page=2' : null),
    });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders({ status: 'pending' });
    expect(server.pagesRequested()).toEqual([undefined, '2']);
    expect(listing.records).toHaveLength(30);
  });

  it('refuses a links.next to another origin, and the foreign server receives no request', async () => {
    const foreign = await serve((_req, res) => sendJson(res, 200, envelope(makeOrders(5))));
    const server = await serveOrders(makeOrders(30), {
      next: (page) => (page === 1 ? `${foreign.baseUrl}/orders?page=2` : null),
    });
    const { client } = createTestClient(server.baseUrl, { organizationName: 'Escola Norte' });
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error).toBeInstanceOf(ForeignLinkError);
    expect(error.message).toContain(foreign.origin);
    expect(error.message).toContain('Escola Norte');
    expect(error.message).toContain('GET /orders?status=pending');
    expect(error.message).not.toContain(TEST_TOKEN);
    expect(foreign.requests).toHaveLength(0);
    expect(foreign.connections).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a links.next to another path on the same origin', async () => {
    const server = await serveOrders(makeOrders(30), {
      next: (page) => (page === 1 ? `${server.origin}/api/v1/admin/products?page=2` : null),
    });
    const { client } = createTestClient(server.baseUrl);
    await expect(client.listOrders()).rejects.toBeInstanceOf(ForeignLinkError);
    expect(server.requests).toHaveLength(1);
  });

  it('raises PaginationError when links.next points back to a page already fetched', async () => {
    const server = await serveOrders(makeOrders(75), {
      next: (page) => `${server.baseUrl}/orders?page=${page === 2 ? 1 : 2}`,
    });
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toContain('already fetched');
    // The link back says page=1 while the first request had no page: still the same page, not fetched again.
    expect(server.pagesRequested()).toEqual([undefined, '2']);
  });

  it('raises PaginationError when links.next points at the page itself', async () => {
    const server = await serveOrders(makeOrders(75), { next: () => `${server.baseUrl}/orders?page=2` });
    const { client } = createTestClient(server.baseUrl);
    await expect(client.listOrders()).rejects.toBeInstanceOf(PaginationError);
    expect(server.pagesRequested()).toEqual([undefined, '2']);
  });

  it('raises PaginationError rather than walk more than maxPages pages', async () => {
    const server = await serveOrders(makeOrders(100));
    const { client } = createTestClient(server.baseUrl, { maxPages: 2 });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toContain('more than 2 pages');
    expect(server.requests).toHaveLength(2);
  });

  it('marks the listing inconsistent when meta.total changes across pages', async () => {
    const server = await serveOrders(makeOrders(30), { total: (page) => (page === 1 ? 30 : 31) });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.records).toHaveLength(30);
    expect(listing).toMatchObject({ complete: true, consistent: false, total: 30 });
    expect(listing.problems).toEqual([
      {
        kind: 'inconsistent_walk',
        listing: '/orders',
        page: 2,
        detail: 'meta.total moved from 30 to 31',
      },
    ]);
  });

  it('marks the listing inconsistent when an order appears on two pages', async () => {
    // An order moves up while we read: the last order of page 1 is shown again on page 2.
    const orders = makeOrders(30);
    const shifted = [...orders.slice(0, 25), orders[24] as OrderInput, ...orders.slice(25, 29)];
    const server = await serveOrders(shifted, { total: () => 30 });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.consistent).toBe(false);
    expect(listing.records).toHaveLength(29);
    expect(new Set(listing.records.map((order) => order.uuid)).size).toBe(29);
    expect(listing.problems).toContainEqual(
      expect.objectContaining({ kind: 'repeated_uuid', page: 2, uuid: orders[24]?.uuid }),
    );
  });

  it('marks the listing inconsistent when the count does not match meta.total', async () => {
    const server = await serveOrders(makeOrders(26), { total: () => 27 });
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.consistent).toBe(false);
    expect(listing.problems).toEqual([
      {
        kind: 'inconsistent_walk',
        listing: '/orders',
        page: 2,
        detail: 'listed 26 records but meta.total is 27',
      },
    ]);
  });

  it('stops rather than loops when a bare-array server ignores page', async () => {
    const orders = makeOrders(25);
    const server = await serve((_req, res) => sendJson(res, 200, orders));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(server.pagesRequested()).toEqual([undefined, '2']);
    expect(listing.records).toHaveLength(25);
    expect(listing.consistent).toBe(false);
  });

  it('stops rather than loops when an envelope server ignores page', async () => {
    const orders = makeOrders(25);
    const server = await serve((_req, res) =>
      sendJson(
        res,
        200,
        paginatedEnvelope(orders, { path: `${server.baseUrl}/orders`, page: 1, lastPage: 3, total: 75 }),
      ),
    );
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(server.requests).toHaveLength(2);
    expect(listing.records).toHaveLength(25);
    expect(listing.consistent).toBe(false);
  });

  it('returns an empty listing for an empty first page', async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        200,
        paginatedEnvelope([], { path: `${server.baseUrl}/orders`, page: 1, lastPage: 1, total: 0 }),
      ),
    );
    const { client } = createTestClient(server.baseUrl);
    expect(await client.listOrders()).toMatchObject({
      records: [],
      total: 0,
      complete: true,
      consistent: true,
    });
  });
});
